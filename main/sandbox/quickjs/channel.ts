/**
 * The message channel between the host thread and the QuickJS worker, with a shared count of the
 * messages posted each way.
 *
 * Handing a message over the event loop means waking a sleeping thread, and on a small VM that
 * costs ~100–300 µs each way — as much as a whole hook call (a futex wait is no cheaper: it is
 * the sleeping that costs). So a side that expects a message very soon keeps looking at the
 * other's count for a moment and takes the messages itself (receiveMessageOnPort): the host for
 * up to a millisecond after posting a call (a plain hook's result is back well within it; see
 * QuickJsWorkerLink.waitBriefly), the worker for a fifth of one after handling messages (the next
 * hook of a pipeline comes within it). Both looks are bounded, so neither thread is ever held
 * longer; anything slower arrives through the event loop as usual. With a single CPU the looking
 * thread would only keep the other from running, so there nobody looks.
 */
import { availableParallelism } from "node:os";
import { MessageChannel, receiveMessageOnPort, type MessagePort } from "node:worker_threads";
import type { FromWorker, ToWorker } from "./protocol.ts";

/** The worker's end, passed in workerData (the port in the transfer list). */
export interface ChannelEnd {
  port: MessagePort;
  counts: SharedArrayBuffer;
}

const TO_WORKER = 0;
const TO_HOST = 1;
const WAITING_PAYS = availableParallelism() > 1;

/** One side of the channel: posts `Out`, delivers `In` to `receive`. */
export class ChannelSide<In, Out> {
  readonly #port: MessagePort;
  readonly #counts: Int32Array;
  readonly #sent: number;
  readonly #received: number;
  readonly #receive: (message: In) => void;
  #looking = false;

  constructor(end: ChannelEnd, side: "host" | "worker", receive: (message: In) => void) {
    this.#port = end.port;
    this.#counts = new Int32Array(end.counts);
    this.#sent = side === "host" ? TO_WORKER : TO_HOST;
    this.#received = side === "host" ? TO_HOST : TO_WORKER;
    this.#receive = receive;
    this.#port.on("message", (message: In) => receive(message));
  }

  post(message: Out): void {
    this.#port.postMessage(message);
    Atomics.add(this.#counts, this.#sent, 1);
  }

  /**
   * Waits on this thread, up to `ms`, for the other side to post; delivers all that is queued
   * and returns true (false when nothing came). Not re-entrant: a message handler that asks again
   * gets false at once.
   */
  takeNext(ms: number): boolean {
    if (this.#looking || !WAITING_PAYS) return false;
    this.#looking = true;
    try {
      const until = performance.now() + ms;
      for (;;) {
        // Read before draining: whatever is posted after the drain changes the count.
        const seen = Atomics.load(this.#counts, this.#received);
        if (this.#drain()) return true;
        while (Atomics.load(this.#counts, this.#received) === seen) {
          if (performance.now() > until) return false;
        }
      }
    } finally {
      this.#looking = false;
    }
  }

  /** A port with a listener keeps its thread alive; the host allows it only while waiting. */
  ref(): void {
    this.#port.ref();
  }

  unref(): void {
    this.#port.unref();
  }

  close(): void {
    this.#port.close();
  }

  #drain(): boolean {
    let took = false;
    for (
      let next = receiveMessageOnPort(this.#port);
      next;
      next = receiveMessageOnPort(this.#port)
    ) {
      took = true;
      this.#receive(next.message as In);
    }
    return took;
  }
}

export type HostSide = ChannelSide<FromWorker, ToWorker>;
export type WorkerSide = ChannelSide<ToWorker, FromWorker>;

/** Opens the channel on the host: its side, and the end to send to the worker. */
export function openChannel(receive: (message: FromWorker) => void): {
  host: HostSide;
  workerEnd: ChannelEnd;
} {
  const { port1, port2 } = new MessageChannel();
  const counts = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
  const host = new ChannelSide<FromWorker, ToWorker>({ port: port1, counts }, "host", receive);
  host.unref();
  return { host, workerEnd: { port: port2, counts } };
}

/** The worker's side of the channel the host opened. */
export function joinChannel(end: ChannelEnd, receive: (message: ToWorker) => void): WorkerSide {
  return new ChannelSide<ToWorker, FromWorker>(end, "worker", receive);
}
