/**
 * React hooks over the bridge: the connection state, pushed events, and calls whose answer is
 * kept fresh (refetched when an event says it is stale, and after a dropped connection returns).
 */
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
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

/**
 * Calls `listener` for every `event`; the latest listener is used without resubscribing. It is
 * taken in as the render commits (a layout effect): a passive effect may wait until after the
 * paint, and events handled meanwhile would meet the render before's state.
 */
export function useBridgeEvent<E extends EventName>(
  event: E,
  listener: (payload: EventPayload<E>) => void,
): void {
  const bridge = useBridge();
  const latest = useRef(listener);
  useLayoutEffect(() => {
    latest.current = listener;
  });
  useEffect(() => bridge.on(event, (payload) => latest.current(payload)), [bridge, event]);
}

/** Runs `listener` each time the connection comes back after it was lost. */
export function useReconnected(listener: () => void): void {
  const bridge = useBridge();
  const latest = useRef(listener);
  useLayoutEffect(() => {
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

export interface Query<T, R = unknown> {
  /** The last answer: kept while a call is under way, after one failed, and for a new request. */
  data: T | undefined;
  /** Why the last call failed, or null. */
  error: string | null;
  loading: boolean;
  /** Calls again with the current request (does nothing while the query is disabled). */
  refresh(): void;
  /** Calls once with `request` instead of the current one (a forced re-fetch, say). */
  refreshWith(request: R): void;
  /**
   * Shows another call's answer of the same shape (a change that answers with the new state) as
   * this query's, unless a newer call starts before it arrives. A failure is the caller's: the
   * promise rejects and `error` stays as it was.
   */
  adopt(answer: Promise<T>): Promise<T>;
}

export interface QueryOptions {
  /** Events after which the answer is stale: each one calls again. */
  refreshOn?: readonly EventName[];
  /** False: no call for now (what was answered stays); true again calls at once. Default true. */
  enabled?: boolean;
}

interface QueryState<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
}

/**
 * Calls `name` with `request` now, again whenever the request changes (by value: an equal object
 * made anew each render is the same request), whenever one of `refreshOn` arrives, and after a
 * reconnect. Answers that arrive out of order are dropped: the newest call wins.
 */
export function useBridgeQuery<N extends CallName>(
  name: N,
  request: CallRequest<N>,
  options: QueryOptions = {},
): Query<CallResponse<N>, CallRequest<N>> {
  const bridge = useBridge();
  const enabled = options.enabled ?? true;
  const [state, setState] = useState<QueryState<CallResponse<N>>>({
    data: undefined,
    error: null,
    loading: true,
  });
  const latestCall = useRef(0);

  const call = useCallback(
    (request: CallRequest<N>) => {
      const id = ++latestCall.current;
      setState((s) => (s.loading ? s : { ...s, loading: true }));
      const send = bridge.call as (name: N, request: CallRequest<N>) => Promise<CallResponse<N>>;
      send(name, request).then(
        (data) => {
          if (id === latestCall.current) setState({ data, error: null, loading: false });
        },
        (error: unknown) => {
          if (id === latestCall.current)
            setState((s) => ({ ...s, error: errorMessage(error), loading: false }));
        },
      );
    },
    [bridge, name],
  );

  // The request by value: what crosses the bridge is its JSON anyway.
  const key = request === undefined ? undefined : JSON.stringify(request);
  const refresh = useCallback(() => {
    if (enabled) call((key === undefined ? undefined : JSON.parse(key)) as CallRequest<N>);
  }, [call, key, enabled]);

  useEffect(() => {
    refresh();
    return () => {
      latestCall.current++;
    };
  }, [refresh]);

  const events = (options.refreshOn ?? []).join("\n");
  useEffect(() => {
    if (events === "") return;
    const offs = events.split("\n").map((e) => bridge.on(e as EventName, () => refresh()));
    return () => offs.forEach((off) => off());
  }, [bridge, events, refresh]);

  useReconnected(refresh);

  const adopt = useCallback((answer: Promise<CallResponse<N>>) => {
    const id = ++latestCall.current;
    return answer.then(
      (data) => {
        if (id === latestCall.current) setState({ data, error: null, loading: false });
        return data;
      },
      (error: unknown) => {
        if (id === latestCall.current) setState((s) => (s.loading ? { ...s, loading: false } : s));
        throw error;
      },
    );
  }, []);

  return { ...state, loading: enabled && state.loading, refresh, refreshWith: call, adopt };
}
