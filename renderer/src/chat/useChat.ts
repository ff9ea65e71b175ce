/**
 * One conversation on the bridge: opens it (a saved session with its history, or a new one on
 * the first prompt), streams `chat/send` into the transcript reducer (chunks batched per frame so
 * a fast model does not re-render per token), stops it, retries the last prompt. What other
 * windows do in the same conversation (their turns, an agent switch) arrives as `chat/event`s
 * and goes through the same reducer.
 */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import { BridgeError, type ChatOutcome, type EventPayload } from "../../../main/bridge/contract.ts";
import type { Remedy } from "../../../main/core/remedy.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage } from "../bridge/hooks.ts";
import {
  EMPTY_TRANSCRIPT,
  isRunning,
  lastPrompt,
  reduceTranscript,
  type ChatEvent,
  type Transcript,
} from "./transcript.ts";

type ChatEventPayload = EventPayload<"chat/event">;

/** After Stop, how long the turn may take to end before its stream is cancelled outright. */
const STOP_GRACE_MS = 3000;

export interface Chat {
  conversationId: string | null;
  title: string;
  agent: string;
  transcript: Transcript;
  running: boolean;
  stopping: boolean;
  /** Why the session could not be opened, or null. */
  openError: string | null;
  loading: boolean;
  send(text: string): void;
  stop(): void;
  retry(): void;
}

export function useChat(sessionId: string | null, onSessionOpened: (id: string) => void): Chat {
  const bridge = useBridge();
  const [transcript, dispatch] = useReducer(reduceTranscript, EMPTY_TRANSCRIPT);
  const [conversation, setConversation] = useState<{
    id: string;
    title: string;
    agent: string;
  } | null>(null);
  const [openError, setOpenError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [stopping, setStopping] = useState(false);
  const openId = useRef<string | null>(null);
  /** Bumped when another session is shown: a turn of the previous one must not write here. */
  const generation = useRef(0);
  const turn = useRef<AbortController | null>(null);
  const stopTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const opened = useRef(onSessionOpened);
  useEffect(() => {
    opened.current = onSessionOpened;
  });
  // Other windows' events: numbered; those up to `floor` are in the history already. Until the
  // history is in (floor null) they wait in `early`.
  const floor = useRef<number | null>(0);
  const early = useRef<ChatEventPayload[]>([]);
  const remote = useMemo(() => frameBatcher((events) => dispatch({ type: "events", events })), []);
  useEffect(
    () =>
      bridge.on("chat/event", (p) => {
        if (floor.current === null) early.current.push(p);
        else if (p.conversationId === openId.current && p.seq > floor.current) {
          floor.current = p.seq;
          remote.push(p.event);
        }
      }),
    [bridge, remote],
  );

  // Open the session the app asks for (unless it is the one this view just created).
  useEffect(() => {
    if (sessionId !== null && sessionId === openId.current) return;
    generation.current++;
    turn.current?.abort();
    turn.current = null;
    setStopping(false);
    remote.flush();
    floor.current = sessionId === null ? 0 : null;
    early.current = [];
    dispatch({ type: "reset" });
    setOpenError(null);
    setConversation(null);
    openId.current = sessionId;
    if (sessionId === null) return;
    let live = true;
    setLoading(true);
    (async () => {
      const reply = await bridge.call("chat/open", { sessionId });
      if (!live) return;
      openId.current = reply.conversationId;
      setConversation({ id: reply.conversationId, title: reply.title, agent: reply.agent });
      const history = await bridge.call("chat/history", { conversationId: reply.conversationId });
      if (!live) return;
      dispatch({ type: "history", events: history.events, running: history.running });
      // Then what other windows did meanwhile, past what the history holds.
      let seq = history.seq;
      const next = early.current.filter(
        (p) => p.conversationId === reply.conversationId && p.seq > history.seq,
      );
      for (const p of next) seq = Math.max(seq, p.seq);
      if (next.length > 0) dispatch({ type: "events", events: next.map((p) => p.event) });
      early.current = [];
      floor.current = seq;
    })()
      .catch((err: unknown) => live && setOpenError(errorMessage(err)))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [bridge, sessionId, remote]);

  // Closing the view cancels a running turn (the engine saves what was said).
  useEffect(() => () => turn.current?.abort(), []);

  // Stable while the transcript streams, so turns that did not change are not rendered again.
  const latest = useRef(transcript);
  useEffect(() => {
    latest.current = transcript;
  });

  const send = useCallback(
    (text: string) => {
      // One turn at a time, whichever window runs it.
      if (turn.current || isRunning(latest.current)) return;
      const controller = new AbortController();
      turn.current = controller;
      const mine = generation.current;
      const current = () => generation.current === mine;
      dispatch({ type: "prompt", text });
      const batch = frameBatcher((events) => current() && dispatch({ type: "events", events }));
      const end = (outcome: ChatOutcome | null, error?: string, remedy?: Remedy) => {
        batch.flush();
        if (stopTimer.current) clearTimeout(stopTimer.current);
        if (!current()) return;
        dispatch({ type: "ended", outcome, error, ...(remedy ? { remedy } : {}) });
        turn.current = null;
        setStopping(false);
      };
      (async () => {
        let id = openId.current;
        if (id === null) {
          const reply = await bridge.call("chat/open", {});
          if (!current()) throw new DOMException("another session is shown", "AbortError");
          id = reply.conversationId;
          openId.current = id;
          setConversation({ id, title: reply.title, agent: reply.agent });
          opened.current(id);
        }
        return bridge.stream(
          "chat/send",
          { conversationId: id, text },
          { onChunk: (event) => batch.push(event), signal: controller.signal },
        );
      })().then(
        (outcome) => end(outcome),
        (err: unknown) =>
          err instanceof Error && err.name === "AbortError"
            ? end({ status: "stopped", text: "", command: null, error: null })
            : err instanceof BridgeError
              ? end(null, err.problem.title, err.problem.remedy)
              : end(null, errorMessage(err)),
      );
    },
    [bridge],
  );

  const stop = useCallback(() => {
    const controller = turn.current;
    if (!controller) {
      // Another window's turn: stop it in the engine; its events say when it ended.
      const id = openId.current;
      if (id !== null && isRunning(latest.current))
        bridge.call("chat/stop", { conversationId: id }).catch(() => undefined);
      return;
    }
    if (stopping) return;
    setStopping(true);
    const id = openId.current;
    if (id !== null)
      bridge.call("chat/stop", { conversationId: id }).catch(() => controller.abort());
    else controller.abort();
    stopTimer.current = setTimeout(() => controller.abort(), STOP_GRACE_MS);
  }, [bridge, stopping]);

  const retry = useCallback(() => {
    const prompt = lastPrompt(latest.current);
    if (prompt !== null) send(prompt);
  }, [send]);

  return {
    conversationId: conversation?.id ?? null,
    title: conversation?.title ?? "",
    agent: conversation?.agent ?? "",
    transcript,
    running: isRunning(transcript),
    stopping,
    openError,
    loading,
    send,
    stop,
    retry,
  };
}

/** Collects streamed events and hands them over once per animation frame. */
function frameBatcher(deliver: (events: ChatEvent[]) => void) {
  let queue: ChatEvent[] = [];
  let frame: number | null = null;
  const flush = () => {
    if (frame !== null) cancelAnimationFrame(frame);
    frame = null;
    if (queue.length === 0) return;
    const events = queue;
    queue = [];
    deliver(events);
  };
  return {
    push(event: ChatEvent) {
      queue.push(event);
      frame ??= requestAnimationFrame(flush);
    },
    flush,
  };
}
