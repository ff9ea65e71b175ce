/** Test support: clients of a BridgeService that record what they were sent. */
import type { EventName } from "./names.ts";
import type { BridgeClient, BridgeService } from "./service.ts";

export interface RecordingClient extends BridgeClient {
  /** Events delivered to this client, in order: [name, payload]. */
  events: [EventName, unknown][];
  /** The payloads of one event. */
  of(event: EventName): unknown[];
  /** Resolves with the next delivery of `event` (or one already received and not yet taken). */
  next(event: EventName): Promise<unknown>;
}

export function recordingClient(service: BridgeService): RecordingClient {
  const events: [EventName, unknown][] = [];
  const taken = new Set<number>();
  const waiters: { event: EventName; resolve(payload: unknown): void }[] = [];
  const client = service.connect({
    deliver(event, payload) {
      events.push([event, payload]);
      const i = waiters.findIndex((w) => w.event === event);
      if (i >= 0) {
        taken.add(events.length - 1);
        waiters.splice(i, 1)[0].resolve(payload);
      }
    },
  });
  return {
    ...client,
    id: client.id,
    events,
    of: (event) => events.filter(([e]) => e === event).map(([, p]) => p),
    next(event) {
      const i = events.findIndex(([e], n) => e === event && !taken.has(n));
      if (i >= 0) {
        taken.add(i);
        return Promise.resolve(events[i][1]);
      }
      return new Promise((resolve) => waiters.push({ event, resolve }));
    },
  };
}
