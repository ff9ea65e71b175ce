/**
 * React hooks over the bridge: the connection state, pushed events, and calls whose answer is
 * kept fresh (refetched when an event says it is stale, and after a dropped connection returns).
 */
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import type { CallRequest, CallResponse, EventPayload } from "../../../main/bridge/contract.ts";
import type { CallName, EventName } from "../../../main/bridge/names.ts";
import { useBridge } from "./context.tsx";
import type { ConnectionState } from "./index.ts";

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function useConnectionState(): ConnectionState {
  const bridge = useBridge();
  return useSyncExternalStore(
    (notify) => bridge.onState(notify),
    () => bridge.state,
  );
}

/** Calls `listener` for every `event`; the latest listener is used without resubscribing. */
export function useBridgeEvent<E extends EventName>(
  event: E,
  listener: (payload: EventPayload<E>) => void,
): void {
  const bridge = useBridge();
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => bridge.on(event, (payload) => latest.current(payload)), [bridge, event]);
}

/** Runs `listener` each time the connection comes back after it was lost. */
export function useReconnected(listener: () => void): void {
  const bridge = useBridge();
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => {
    let lost = bridge.state === "closed";
    return bridge.onState((state) => {
      if (state === "closed") lost = true;
      else if (state === "open" && lost) {
        lost = false;
        latest.current();
      }
    });
  }, [bridge]);
}

/** The calls that take no payload: the ones a query can make by name alone. */
export type QueryName = {
  [N in CallName]: CallRequest<N> extends undefined ? N : never;
}[CallName];

export interface Query<T> {
  /** The last answer; kept while a refresh is under way or after a refresh failed. */
  data: T | undefined;
  /** Why the last call failed, or null. */
  error: string | null;
  loading: boolean;
  refresh(): void;
}

interface QueryState<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
}

/**
 * Calls `name` now, again whenever one of `refreshOn` arrives, and again after a reconnect.
 * Answers that arrive out of order are dropped: the newest call wins.
 */
export function useBridgeQuery<N extends QueryName>(
  name: N,
  options: { refreshOn?: readonly EventName[] } = {},
): Query<CallResponse<N>> {
  const bridge = useBridge();
  const [state, setState] = useState<QueryState<CallResponse<N>>>({
    data: undefined,
    error: null,
    loading: true,
  });
  const latestCall = useRef(0);

  const refresh = useCallback(() => {
    const id = ++latestCall.current;
    setState((s) => (s.loading ? s : { ...s, loading: true }));
    const call = bridge.call as (name: N) => Promise<CallResponse<N>>;
    call(name).then(
      (data) => {
        if (id === latestCall.current) setState({ data, error: null, loading: false });
      },
      (error: unknown) => {
        if (id === latestCall.current)
          setState((s) => ({ ...s, error: errorMessage(error), loading: false }));
      },
    );
  }, [bridge, name]);

  useEffect(() => {
    refresh();
    return () => {
      latestCall.current++;
    };
  }, [refresh]);

  const events = (options.refreshOn ?? []).join("\n");
  useEffect(() => {
    if (events === "") return;
    const offs = events.split("\n").map((e) => bridge.on(e as EventName, refresh));
    return () => offs.forEach((off) => off());
  }, [bridge, events, refresh]);

  useReconnected(refresh);

  return { ...state, refresh };
}
