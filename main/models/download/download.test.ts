import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, stat, symlink } from "node:fs/promises";
import { createServer as createHttpServer } from "node:http";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { startFileServer } from "../testing/file-server.ts";
import { download, DownloadError, maxDownloadBytes, type DownloadFailure } from "./download.ts";
import type { DownloadProgress } from "./progress.ts";

const body = randomBytes(2 * 1024 * 1024 + 123);
const sha = createHash("sha256").update(body).digest("hex");
let dir: string;
let n = 0;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "islet-dl-"));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});
const dest = () => path.join(dir, `m${++n}.gguf`);

async function failsWith(
  p: Promise<unknown>,
  kind: DownloadFailure,
  pattern: RegExp,
): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof DownloadError, String(err));
    assert.equal(err.kind, kind, err.message);
    assert.match(err.message, pattern);
    assert.ok(!err.message.includes("\n"), "one line");
    return true;
  });
}

test("interrupted at 40%, the next attempt resumes with a Range request and ends with the same sha256", async () => {
  const cutAt = Math.floor(body.length * 0.4);
  const server = await startFileServer({ body, cutAfter: cutAt });
  try {
    const file = dest();
    const opts = {
      url: `${server.url}/model.gguf`,
      dest: file,
      label: "tiny",
      sha256: sha,
      size: body.length,
    };
    await failsWith(
      download(opts),
      "network",
      /^tiny: the download broke off .* kept in .*\.partial — run the same command again to resume$/,
    );
    // What reached the disk before the break: the server sent 40%; a busy reader may not have
    // taken the last chunks off the socket before the error (fetch drops them).
    const kept = (await stat(`${file}.partial`)).size;
    assert.ok(kept > 0 && kept <= cutAt, `kept ${kept} of the ${cutAt} sent`);
    assert.equal(server.requests[0].sent, cutAt);
    await assert.rejects(stat(file), "nothing at the final name yet");

    const seen: DownloadProgress[] = [];
    const result = await download({ ...opts, onProgress: (p) => seen.push(p) });
    assert.equal(result.sha256, sha);
    assert.equal(result.resumedFrom, kept);
    assert.deepEqual(server.requests[1], {
      range: `bytes=${kept}-`,
      status: 206,
      sent: body.length - kept,
    });
    assert.deepEqual(await readFile(file), body);
    await assert.rejects(stat(`${file}.partial`), "the partial file became the model");
    assert.equal(seen[0].received, kept);
    assert.equal(seen.at(-1)?.received, body.length);
    assert.equal(seen.at(-1)?.total, body.length);
    assert.ok(seen.every((p) => p.resumedFrom === kept));
  } finally {
    await server.close();
  }
});

test("a checksum mismatch leaves nothing behind", async () => {
  const server = await startFileServer({ body });
  try {
    const file = dest();
    await failsWith(
      download({ url: `${server.url}/model.gguf`, dest: file, sha256: "0".repeat(64) }),
      "checksum",
      new RegExp(`checksum mismatch \\(sha256 ${sha}, expected 0{64}\\); the download was deleted`),
    );
    assert.deepEqual(
      (await readdir(dir)).filter((f) => f.startsWith(path.basename(file))),
      [],
    );
  } finally {
    await server.close();
  }
});

test("a 404 is one line and writes nothing", async () => {
  const server = await startFileServer({ body });
  try {
    const file = dest();
    await failsWith(
      download({ url: `${server.url}/nope.gguf`, dest: file, label: "nope" }),
      "not-found",
      /^nope: not found at http:\/\/127\.0\.0\.1:\d+\/nope\.gguf \(HTTP 404\) — check the model name or URL/,
    );
    assert.deepEqual(
      (await readdir(dir)).filter((f) => f.startsWith(path.basename(file))),
      [],
    );
  } finally {
    await server.close();
  }
});

test("not enough disk space: one line before any byte is fetched (size known) or written (size from the server)", async () => {
  const server = await startFileServer({ body });
  try {
    const file = dest();
    const freeBytes = async () => 1_000_000;
    const opts = { url: `${server.url}/model.gguf`, dest: file, label: "tiny", freeBytes };
    await failsWith(
      download({ ...opts, size: body.length }),
      "no-space",
      /^tiny: not enough disk space: needs 2 MB, 1 MB free in .* — free some space and try again$/,
    );
    assert.equal(server.requests.length, 0, "no request when the catalog gives the size");
    await failsWith(download(opts), "no-space", /needs 2 MB, 1 MB free/);
    assert.equal(server.requests.length, 1);
    await assert.rejects(stat(`${file}.partial`));
  } finally {
    await server.close();
  }
});

test("a full disk while writing is one line (the kernel's ENOSPC, from /dev/full)", async () => {
  const server = await startFileServer({ body });
  try {
    const file = dest();
    await symlink("/dev/full", `${file}.partial`);
    await failsWith(
      download({ url: `${server.url}/model.gguf`, dest: file, label: "tiny" }),
      "disk-full",
      /^tiny: the disk is full .* — free some space and run the same command again to resume$/,
    );
  } finally {
    await server.close();
  }
});

test("cancelled through its AbortSignal: the partial file stays, and the next attempt finishes it", async () => {
  const server = await startFileServer({ body, chunkDelayMs: 20 });
  try {
    const file = dest();
    const ctl = new AbortController();
    const opts = { url: `${server.url}/model.gguf`, dest: file, label: "tiny", sha256: sha };
    await failsWith(
      download({
        ...opts,
        signal: ctl.signal,
        progressIntervalMs: 0,
        onProgress: (p) => {
          if (p.received > 256 * 1024) ctl.abort();
        },
      }),
      "cancelled",
      /^tiny: download cancelled; .* kept in .*\.partial — run the same command again to resume$/,
    );
    const kept = (await stat(`${file}.partial`)).size;
    assert.ok(kept > 256 * 1024 && kept < body.length, `kept ${kept}`);
    const result = await download(opts);
    assert.equal(result.sha256, sha);
    assert.equal(result.resumedFrom, kept);
  } finally {
    await server.close();
  }
});

test("a server that ignores Range sends the whole file again, and the result is still right", async () => {
  const server = await startFileServer({ body, cutAfter: 500_000, ignoreRange: true });
  try {
    const file = dest();
    const opts = { url: `${server.url}/model.gguf`, dest: file, sha256: sha };
    await assert.rejects(download(opts));
    const result = await download(opts);
    assert.equal(result.sha256, sha);
    assert.equal(result.resumedFrom, 0);
    assert.equal(server.requests[1].status, 200);
  } finally {
    await server.close();
  }
});

test("a size that differs from the catalog's stops before downloading; nothing listening is a network line", async () => {
  const server = await startFileServer({ body });
  try {
    await failsWith(
      download({ url: `${server.url}/model.gguf`, dest: dest(), label: "tiny", size: 999 }),
      "size",
      /the server offers \d+ bytes, expected 999/,
    );
  } finally {
    await server.close();
  }
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
  const port = (closed.address() as { port: number }).port;
  await new Promise((r) => closed.close(r));
  await failsWith(
    download({ url: `http://127.0.0.1:${port}/model.gguf`, dest: dest(), label: "tiny" }),
    "network",
    new RegExp(
      `^tiny: cannot reach 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\) — check the network connection`,
    ),
  );
});

/** A server that streams without Content-Length and never stops; it counts what it sent. */
async function endlessServer(): Promise<{
  url: string;
  sent: () => number;
  close(): Promise<void>;
}> {
  let sent = 0;
  const chunk = randomBytes(64 * 1024);
  const server = createHttpServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/octet-stream" });
    const pump = () => {
      while (!res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
    };
    res.on("close", () => res.destroy());
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/model.gguf`,
    sent: () => sent,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

test("a download without Content-Length stops at the catalog's size and is deleted", async () => {
  const server = await endlessServer();
  try {
    const file = dest();
    const size = 1024 * 1024;
    await failsWith(
      download({ url: server.url, dest: file, label: "tiny", sha256: sha, size }),
      "size",
      /^tiny: the server sent more than the catalog's 1(\.0)? MB .*not the one the catalog names; the download was deleted$/,
    );
    await assert.rejects(stat(`${file}.partial`), "the partial file is gone");
    await assert.rejects(stat(file));
    // Stopped at once, not after reading on: what the server got out is the size plus buffers.
    assert.ok(server.sent() < size + 16 * 1024 * 1024, `the server sent ${server.sent()} bytes`);
  } finally {
    await server.close();
  }
});

test("a URL pull (no catalog size) without Content-Length stops at the download cap", async () => {
  const server = await endlessServer();
  try {
    const file = dest();
    const maxBytes = 2 * 1024 * 1024;
    await failsWith(
      download({ url: server.url, dest: file, label: "big", maxBytes }),
      "size",
      /^big: the file at .* is larger than 2(\.0)? MB, the most a download may take \(ISLET_MAX_DOWNLOAD_GB raises it\); the download was deleted$/,
    );
    await assert.rejects(stat(`${file}.partial`));
    assert.ok(
      server.sent() < maxBytes + 16 * 1024 * 1024,
      `the server sent ${server.sent()} bytes`,
    );
  } finally {
    await server.close();
  }
});

test("a URL pull whose Content-Length is over the cap downloads nothing", async () => {
  const server = await startFileServer({ body });
  try {
    const file = dest();
    await failsWith(
      download({
        url: `${server.url}/model.gguf`,
        dest: file,
        label: "big",
        maxBytes: 1024 * 1024,
      }),
      "size",
      /^big: the file at .* is larger than .*; nothing was downloaded$/,
    );
    await assert.rejects(stat(`${file}.partial`));
    // Within the cap the same file downloads.
    const ok = await download({
      url: `${server.url}/model.gguf`,
      dest: file,
      maxBytes: body.length,
    });
    assert.equal(ok.sha256, sha);
  } finally {
    await server.close();
  }
});

test("the download cap is 64 GiB unless ISLET_MAX_DOWNLOAD_GB says otherwise", () => {
  assert.equal(maxDownloadBytes({}), 64 * 1024 ** 3);
  assert.equal(maxDownloadBytes({ ISLET_MAX_DOWNLOAD_GB: "200" }), 200 * 1024 ** 3);
  assert.equal(maxDownloadBytes({ ISLET_MAX_DOWNLOAD_GB: "nonsense" }), 64 * 1024 ** 3);
});
