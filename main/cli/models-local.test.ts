// `islet models pull|list|rm` through the real binary, against a loopback file server and a
// catalog that points at it (ISLET_MODELS_CATALOG).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startFileServer } from "../models/testing/file-server.ts";
import { ggufBytes, llamaSpec } from "../models/testing/gguf-writer.ts";
import { progressLine } from "./models-local.ts";
import { islet, startIslet, tempDirs } from "./testing/islet.ts";

// A valid header and ~3 MB of zeroed tensor data, so a slow server takes a while to send it.
const body = ggufBytes({
  ...llamaSpec(),
  tensors: [...llamaSpec().tensors, { name: "output.weight", dims: [512, 1536], type: 0 }],
});
const sha256 = createHash("sha256").update(body).digest("hex");

async function catalogFile(dir: string, url: string): Promise<string> {
  const file = path.join(dir, "catalog.yaml");
  const entry = {
    name: "tiny",
    title: "Tiny Test",
    description: "A test model.",
    url,
    size: body.length,
    sha256: createHash("sha256").update(body).digest("hex"),
    quantization: "Q4_K_M",
    parameters: "0.5B",
    memory_gb: 0.5,
    license: "MIT",
  };
  await writeFile(file, JSON.stringify({ models: [entry] }));
  return file;
}

test("models pull NAME downloads and checks a catalog model; list shows it with its header and fit; rm deletes it", async () => {
  const dirs = await tempDirs();
  const server = await startFileServer({ body });
  try {
    const env = { ISLET_MODELS_CATALOG: await catalogFile(dirs.root, `${server.url}/model.gguf`) };
    const home = ["--home", dirs.home, "--workdir", dirs.workdir];

    const empty = await islet(["models", "list", ...home], env);
    assert.equal(empty.code, 0, empty.stderr);
    assert.match(
      empty.stdout,
      /^local \(embedded runtime\) .*models\n {2}\(no models yet: `islet models pull tiny` downloads Tiny Test, 3 MB\)\n/,
    );
    assert.match(
      empty.stdout,
      /^catalog \(islet models pull NAME\)\n {2}tiny {2}3 MB {2}0\.5B Q4_K_M {2}MIT {2}fits .* {2}recommended$/m,
    );

    const pulled = await islet(["models", "pull", "tiny", ...home], env);
    assert.equal(pulled.code, 0, pulled.stderr);
    assert.match(pulled.stderr, /^Downloading tiny \(3 MB, Q4_K_M, MIT\) from 127\.0\.0\.1:\d+\n/);
    assert.match(pulled.stderr, /3 MB of 3 MB {2}100%/, "progress lines when not on a terminal");
    assert.match(pulled.stdout, /^tiny is ready \(.*tiny\.gguf\)\n$/);
    const again = await islet(["models", "pull", "tiny", ...home], env);
    assert.match(again.stdout, /^tiny is already downloaded/);

    const listed = await islet(["models", "--json", ...home], env);
    const json = JSON.parse(listed.stdout) as {
      local: {
        models: { name: string; architecture: string; quantization: string; fit: string }[];
        catalog: { name: string; downloaded: boolean }[];
      };
    };
    assert.deepEqual(
      json.local.models.map((m) => [m.name, m.architecture, m.quantization, m.fit]),
      [["tiny", "llama", "Q4_K_M", "fits"]],
    );
    assert.deepEqual(
      json.local.catalog.map((c) => [c.name, c.downloaded]),
      [["tiny", true]],
    );

    const removed = await islet(["models", "rm", "tiny", ...home], env);
    assert.equal(removed.code, 0);
    assert.match(removed.stdout, /^Deleted tiny/);
    await assert.rejects(stat(path.join(dirs.home, "models", "tiny.gguf")));
    const gone = await islet(["models", "rm", "tiny", ...home], env);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /^islet: no model named "tiny" in .* — no models downloaded\n$/);
  } finally {
    await server.close();
    await dirs.clean();
  }
});

test("Ctrl-C during a pull cancels it and keeps the partial file; the next pull resumes it", async () => {
  const dirs = await tempDirs();
  const server = await startFileServer({ body, chunkDelayMs: 100 });
  const before = process.env.ISLET_MODELS_CATALOG;
  try {
    process.env.ISLET_MODELS_CATALOG = await catalogFile(dirs.root, `${server.url}/model.gguf`);
    const partial = path.join(dirs.home, "models", "tiny.gguf.partial");
    const child = startIslet([
      "models",
      "pull",
      "tiny",
      "--home",
      dirs.home,
      "--workdir",
      dirs.workdir,
    ]);
    for (
      let i = 0;
      i < 400 && ((await stat(partial).catch(() => null))?.size ?? 0) < 200_000;
      i++
    ) {
      await new Promise((r) => setTimeout(r, 25));
    }
    child.child.kill("SIGINT");
    assert.equal(await child.exit(10_000), 130);
    assert.match(
      child.output().stderr,
      /islet: tiny: download cancelled; .* kept in .*tiny\.gguf\.partial — run the same command again to resume\n$/,
    );
    const kept = (await stat(partial)).size;
    server.setChunkDelay(0);
    assert.ok(kept > 0 && kept < body.length, `kept ${kept} of ${body.length}`);

    const resumed = await islet([
      "models",
      "pull",
      "tiny",
      "--home",
      dirs.home,
      "--workdir",
      dirs.workdir,
    ]);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(server.requests.at(-1)?.range, `bytes=${kept}-`);
    assert.equal((await stat(path.join(dirs.home, "models", "tiny.gguf"))).size, body.length);
  } finally {
    if (before === undefined) delete process.env.ISLET_MODELS_CATALOG;
    else process.env.ISLET_MODELS_CATALOG = before;
    await server.close();
    await dirs.clean();
  }
});

test("two pulls of one model at once: the second says in one line who is downloading it; a dead holder's lock is taken over", async () => {
  const dirs = await tempDirs();
  // ~12 s for the whole file: the second pull starts well before the first one ends.
  const server = await startFileServer({ body, chunkDelayMs: 250 });
  const before = process.env.ISLET_MODELS_CATALOG;
  try {
    process.env.ISLET_MODELS_CATALOG = await catalogFile(dirs.root, `${server.url}/model.gguf`);
    const home = ["--home", dirs.home, "--workdir", dirs.workdir];
    const partial = path.join(dirs.home, "models", "tiny.gguf.partial");
    const first = startIslet(["models", "pull", "tiny", ...home]);
    for (let i = 0; i < 800 && ((await stat(partial).catch(() => null))?.size ?? 0) === 0; i++)
      await new Promise((r) => setTimeout(r, 25));
    const second = await islet(["models", "pull", "tiny", ...home]);
    assert.equal(second.code, 1, second.stdout + second.stderr);
    assert.match(
      second.stderr,
      new RegExp(
        `^islet: tiny: already being downloaded by process ${first.child.pid} \\(into .*tiny\\.gguf\\.partial\\) — wait for it to finish, or stop it and pull again\n$`,
        "m",
      ),
    );
    server.setChunkDelay(0);
    assert.equal(await first.exit(120_000), 0, first.output().stderr);
    const file = path.join(dirs.home, "models", "tiny.gguf");
    assert.equal(
      createHash("sha256")
        .update(await readFile(file))
        .digest("hex"),
      sha256,
    );
    await assert.rejects(stat(`${partial}.lock`), "the lock is gone with the download");

    // A holder that died (killed mid-download) leaves its lock: the next pull takes it over.
    await rm(file);
    const dead = spawnSync(process.execPath, ["-e", "0"]).pid;
    await writeFile(`${partial}.lock`, JSON.stringify({ pid: dead, started: Date.now() }));
    const again = await islet(["models", "pull", "tiny", ...home]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal((await stat(file)).size, body.length);
    await assert.rejects(stat(`${partial}.lock`));
  } finally {
    if (before === undefined) delete process.env.ISLET_MODELS_CATALOG;
    else process.env.ISLET_MODELS_CATALOG = before;
    await server.close();
    await dirs.clean();
  }
});

test("a pull of a missing file is one line; bad usage is exit 2", async () => {
  const dirs = await tempDirs();
  const server = await startFileServer({ body });
  try {
    const env = { ISLET_MODELS_CATALOG: await catalogFile(dirs.root, `${server.url}/gone.gguf`) };
    const r = await islet(["models", "pull", "tiny", "--home", dirs.home], env);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /\nislet: tiny: not found at http:\/\/127\.0\.0\.1:\d+\/gone\.gguf \(HTTP 404\) — check the model name or URL.*\n$/,
    );
    const unknown = await islet(["models", "pull", "nope", "--home", dirs.home], env);
    assert.match(
      unknown.stderr,
      /^islet: no model named "nope" in the catalog — pull one of tiny, or give a URL to a \.gguf file\n$/,
    );
    assert.equal((await islet(["models", "pull", "--home", dirs.home], env)).code, 2);
    assert.equal((await islet(["models", "frob", "--home", dirs.home], env)).code, 2);
  } finally {
    await server.close();
    await dirs.clean();
  }
});

test("the terminal progress line: bytes, percent, rate, time left", () => {
  assert.equal(
    progressLine({
      received: 1.2e9,
      total: 2.5e9,
      resumedFrom: 0,
      bytesPerSecond: 12.3e6,
      secondsLeft: 105.7,
    }),
    "1.2 GB of 2.5 GB  48%  12 MB/s  1:46 left",
  );
  assert.equal(
    progressLine({
      received: 5e6,
      total: null,
      resumedFrom: 0,
      bytesPerSecond: 0,
      secondsLeft: null,
    }),
    "5 MB  0 B/s",
  );
});
