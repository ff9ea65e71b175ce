/**
 * A loopback HTTP server for download tests: serves one body at /model.gguf with HTTP Range
 * support (206 + Content-Range, 416 past the end), 404 elsewhere. It can close the connection
 * after a number of body bytes (once), send slowly, or ignore Range, and it records what each
 * request asked for and how many bytes it was sent.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FileServerOptions {
  body: Buffer;
  /** Destroy the socket after this many body bytes, on the first request only. */
  cutAfter?: number;
  /** Pause between 64 KiB chunks (slow downloads for cancel tests). */
  chunkDelayMs?: number;
  ignoreRange?: boolean;
}

export interface FileServer {
  url: string;
  requests: { range: string | null; status: number; sent: number }[];
  /** Changes the pause between chunks for the requests that follow. */
  setChunkDelay(ms: number): void;
  close(): Promise<void>;
}

const CHUNK = 64 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startFileServer(opts: FileServerOptions): Promise<FileServer> {
  const requests: FileServer["requests"] = [];
  let cut = opts.cutAfter;
  let delay = opts.chunkDelayMs ?? 0;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const range = req.headers.range ?? null;
    const record = { range, status: 0, sent: 0 };
    requests.push(record);
    if (new URL(req.url ?? "/", "http://x").pathname !== "/model.gguf") {
      record.status = 404;
      res.writeHead(404).end("Entry not found");
      return;
    }
    const size = opts.body.length;
    let start = 0;
    const m = range && !opts.ignoreRange ? /^bytes=(\d+)-$/.exec(range) : null;
    if (m) {
      start = Number(m[1]);
      if (start >= size) {
        record.status = 416;
        res.writeHead(416, { "content-range": `bytes */${size}` }).end();
        return;
      }
      record.status = 206;
      res.writeHead(206, {
        "content-range": `bytes ${start}-${size - 1}/${size}`,
        "content-length": String(size - start),
      });
    } else {
      record.status = 200;
      res.writeHead(200, { "content-length": String(size) });
    }
    const pause = delay;
    for (let at = start; at < size; at += CHUNK) {
      let piece = opts.body.subarray(at, Math.min(at + CHUNK, size));
      if (cut !== undefined && record.sent + piece.length >= cut) {
        piece = piece.subarray(0, cut - record.sent);
        cut = undefined;
        record.sent += piece.length;
        await new Promise<void>((r) => res.write(piece, () => r()));
        // FIN after the bytes (not a reset, which can drop bytes still in flight): the client
        // gets exactly `cutAfter` bytes, then a connection closed early.
        res.socket?.end();
        return;
      }
      record.sent += piece.length;
      if (!res.write(piece)) await new Promise((r) => res.once("drain", r));
      if (pause) await sleep(pause);
      if (res.destroyed) return;
    }
    res.end();
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setChunkDelay: (ms) => {
      delay = ms;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
