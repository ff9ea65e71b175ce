/**
 * One conversation on the bridge: opens it (a saved session with its history, or a new one on
 * the first prompt), streams `chat/send` into the transcript reducer (chunks batched per frame so
 * a fast model does not re-render per token), stops it, retries the last prompt.
 */
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { BridgeError, type ChatOutcome } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage } from "../bridge/hooks.ts";
import type { LiveBridge } from "../bridge/index.ts";
import {
  EMPTY_TRANSCRIPT,
  isRunning,
  lastPrompt,
  reduceTranscript,
  type ChatEvent,
  type Transcript,
} from "./transcript.ts";

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

  // Open the session the app asks for (unless it is the one this view just created).
  useEffect(() => {
    if (sessionId !== null && sessionId === openId.current) return;
    generation.current++;
    turn.current?.abort();
    turn.current = null;
    setStopping(false);
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
      const history = await loadHistory(bridge, reply.conversationId);
      if (live && history) dispatch({ type: "history", events: history });
    })()
      .catch((err: unknown) => live && setOpenError(errorMessage(err)))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [bridge, sessionId]);

  // Closing the view cancels a running turn (the engine saves what was said).
  useEffect(() => () => turn.current?.abort(), []);

  const send = useCallback(
    (text: string) => {
      if (turn.current) return;
      const controller = new AbortController();
      turn.current = controller;
      const mine = generation.current;
      const current = () => generation.current === mine;
      dispatch({ type: "prompt", text });
      const batch = frameBatcher((events) => current() && dispatch({ type: "events", events }));
      const end = (outcome: ChatOutcome | null, error?: string) => {
        batch.flush();
        if (stopTimer.current) clearTimeout(stopTimer.current);
        if (!current()) return;
        dispatch({ type: "ended", outcome, error });
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
            : end(null, err instanceof BridgeError ? err.problem.title : errorMessage(err)),
      );
    },
    [bridge],
  );

  const stop = useCallback(() => {
    const controller = turn.current;
    if (!controller || stopping) return;
    setStopping(true);
    const id = openId.current;
    if (id !== null)
      bridge.call("chat/stop", { conversationId: id }).catch(() => controller.abort());
    else controller.abort();
    stopTimer.current = setTimeout(() => controller.abort(), STOP_GRACE_MS);
  }, [bridge, stopping]);

  // Stable while the transcript streams, so turns that did not change are not rendered again.
  const latest = useRef(transcript);
  useEffect(() => {
    latest.current = transcript;
  });
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

/** `chat/history`: the saved session as the same events the live stream carries. */
async function loadHistory(bridge: LiveBridge, conversationId: string): Promise<ChatEvent[]> {
  const reply = await bridge.call("chat/history", { conversationId });
  return reply.events;
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
