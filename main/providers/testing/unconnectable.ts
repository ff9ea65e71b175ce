/**
 * A loopback address where TCP connects hang (connect-timeout tests, no network needed): a
 * listening socket whose accept queue is full. A worker thread listens with a backlog of 1 and
 * then blocks, so nothing is ever accepted; the kernel completes handshakes until the queue is
 * full and from then on drops new SYNs, which leaves every further connect waiting.
 */
import net from "node:net";
import { Worker } from "node:worker_threads";

export interface Unconnectable {
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  readonly port: number;
  close(): Promise<void>;
}

const LISTENER = `
const { workerData, parentPort } = require("node:worker_threads");
const net = require("node:net");
const server = net.createServer();
server.listen({ port: 0, host: "127.0.0.1", backlog: 1 }, () => {
  parentPort.postMessage(server.address().port);
  // Block this thread's event loop (no accept) until the test wakes it.
  setImmediate(() => {
    Atomics.wait(new Int32Array(workerData), 0, 0);
    server.close();
  });
});
`;

/** Connects, resolving true once connected and false if still pending after `ms`. */
function connects(port: number, ms: number, sockets: net.Socket[]): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    sockets.push(socket);
    const timer = setTimeout(() => resolve(false), ms);
    socket.once("connect", () => {
      clearTimeout(timer);
      resolve(true);
    });
    socket.once("error", () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}

export async function startUnconnectable(): Promise<Unconnectable> {
  const wake = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(LISTENER, { eval: true, workerData: wake.buffer });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once("message", (p: number) => resolve(p));
    worker.once("error", reject);
  });
  // Fill the accept queue: a loopback handshake the kernel will complete takes microseconds, so
  // a connect still pending after a second means the queue is full.
  const fillers: net.Socket[] = [];
  for (let i = 0; i < 64; i++) if (!(await connects(port, 1000, fillers))) break;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    async close() {
      for (const s of fillers) s.destroy();
      Atomics.store(wake, 0, 1);
      Atomics.notify(wake, 0);
      await worker.terminate();
    },
  };
}
