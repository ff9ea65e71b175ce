// The Models screen's calls against a real bridge host: the catalog (pointing at a loopback file
// server through ISLET_MODELS_CATALOG), a download with progress events to every window, cancel
// keeping the partial file, a failed download as one line, delete, and the picker's Built-in group.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import { startFileServer, type FileServer } from "../../models/testing/file-server.ts";
import { ggufBytes, llamaSpec } from "../../models/testing/gguf-writer.ts";
import type { ModelDownload } from "../schemas/models.ts";
import { recordingClient } from "../testing.ts";
import { startSettingsHarness } from "./testing-host.ts";

const body = ggufBytes({
  ...llamaSpec(),
  tensors: [...llamaSpec().tensors, { name: "output.weight", dims: [512, 1024], type: 0 }],
});
let server: FileServer;
let catalog: string;

before(async () => {
  server = await startFileServer({ body });
  const entry = (name: string, file: string) => ({
    name,
    title: name === "tiny" ? "Tiny Test" : "Gone",
    description: "A test model.",
    url: `${server.url}/${file}`,
    size: body.length,
    sha256: createHash("sha256").update(body).digest("hex"),
    quantization: "Q4_K_M",
    parameters: "0.5B",
    memory_gb: 0.5,
    license: "MIT",
  });
  catalog = path.join(process.env.TMPDIR ?? "/tmp", `islet-catalog-${process.pid}.yaml`);
  await writeFile(
    catalog,
    JSON.stringify({ models: [entry("tiny", "model.gguf"), entry("gone", "gone.gguf")] }),
  );
  process.env.ISLET_MODELS_CATALOG = catalog;
});
after(async () => {
  delete process.env.ISLET_MODELS_CATALOG;
  await rm(catalog, { force: true });
  await server.close();
});

async function until(c: ReturnType<typeof recordingClient>, state: string): Promise<ModelDownload> {
  for (;;) {
    const e = (await c.next("models/download")) as ModelDownload;
    if (e.state === state) return e;
  }
}

test("download from the catalog: progress to every window, then listed, in the picker, and deletable", async () => {
  const h = await startSettingsHarness([], {}, { providers: false });
  const a = recordingClient(h.host.service);
  const b = recordingClient(h.host.service);
  try {
    const before = (await a.call("models/local", undefined)) as {
      models: unknown[];
      catalog: { name: string; downloaded: boolean; fit: string }[];
      recommended: string;
    };
    assert.deepEqual(before.models, []);
    assert.deepEqual(
      before.catalog.map((c) => [c.name, c.downloaded, c.fit]),
      [
        ["tiny", false, "fits"],
        ["gone", false, "fits"],
      ],
    );

    const started = (await a.call("models/download", { name: "tiny" })) as ModelDownload;
    assert.equal(started.state, "running");
    const done = await until(b, "done");
    assert.equal(done.received, body.length, "the other window saw it finish");
    assert.ok(b.of("models/download").length >= 2);
    await b.next("settings/changed");

    const after = (await a.call("models/local", undefined)) as {
      models: { name: string; architecture: string; fit: string; inUse: boolean }[];
      catalog: { name: string; downloaded: boolean }[];
    };
    assert.deepEqual(
      after.models.map((m) => [m.name, m.architecture, m.fit]),
      [["tiny", "llama", "fits"]],
    );
    assert.equal(after.catalog[0].downloaded, true);
    const list = (await a.call("models/list", {})) as {
      servers: { provider: string; label: string; source: string; models: string[] }[];
    };
    assert.deepEqual(
      list.servers.map((s) => [s.provider, s.label, s.source, s.models]),
      [["local", "Built-in", "embedded", ["tiny"]]],
    );

    await a.call("models/delete", { name: "tiny" });
    await assert.rejects(stat(path.join(h.home, "models", "tiny.gguf")));
    await assert.rejects(a.call("models/delete", { name: "tiny" }), /no model named "tiny"/);
  } finally {
    await h.close();
  }
});

test("a failed download reports one line; a cancelled one keeps its partial file", async () => {
  const h = await startSettingsHarness([], {}, { providers: false });
  const a = recordingClient(h.host.service);
  try {
    await a.call("models/download", { name: "gone" });
    const failed = await until(a, "failed");
    assert.match(failed.error ?? "", /^gone: not found at .*gone\.gguf \(HTTP 404\)/);
    await assert.rejects(
      a.call("models/download", { name: "nope" }),
      /no model named "nope" in the catalog/,
    );

    server.setChunkDelay(50);
    await a.call("models/download", { name: "tiny" });
    for (;;) {
      const e = (await a.next("models/download")) as ModelDownload;
      if (e.received > 0) break;
    }
    assert.deepEqual(await a.call("models/cancelDownload", { name: "tiny" }), { cancelled: true });
    const cancelled = await until(a, "cancelled");
    assert.equal(cancelled.error, null);
    const kept = (await stat(path.join(h.home, "models", "tiny.gguf.partial"))).size;
    assert.ok(kept > 0 && kept < body.length);
    const listed = (await a.call("models/local", undefined)) as { downloads: ModelDownload[] };
    assert.deepEqual(
      listed.downloads.map((d) => [d.name, d.state]),
      [
        ["gone", "failed"],
        ["tiny", "cancelled"],
      ],
    );
  } finally {
    server.setChunkDelay(0);
    await h.close();
  }
});

test("a configured `local` provider lists the models in the host's home (the folder the engine loads from)", async () => {
  const h = await startSettingsHarness([], {
    "home/config/providers.yaml": "providers:\n  mine: { type: local }\n",
  });
  const a = recordingClient(h.host.service);
  try {
    await mkdir(path.join(h.home, "models"), { recursive: true });
    await writeFile(path.join(h.home, "models", "handmade-7q.gguf"), body);
    const list = (await a.call("models/list", {})) as {
      servers: { provider: string; source: string; baseUrl: string; models: string[] }[];
    };
    const mine = list.servers.find((s) => s.provider === "mine");
    assert.deepEqual(
      [mine?.source, mine?.baseUrl, mine?.models],
      ["configured", path.join(h.home, "models"), ["handmade-7q"]],
    );
    const tested = (await a.call("settings/testProvider", { name: "mine" })) as {
      ok: boolean;
      models: string[];
    };
    assert.deepEqual([tested.ok, tested.models], [true, ["handmade-7q"]]);
  } finally {
    await h.close();
  }
});

test("a download that broke off says so in the app's words, reports what it kept, and Resume continues from there", async () => {
  const cut = await startFileServer({ body, cutAfter: 300_000 });
  const h = await startSettingsHarness([], {}, { providers: false });
  const a = recordingClient(h.host.service);
  const url = `${cut.url}/model.gguf`;
  try {
    await a.call("models/download", { name: url });
    const failed = await until(a, "failed");
    assert.ok(failed.partial > 0 && failed.partial <= 300_000, failed.error ?? "");
    assert.match(failed.error ?? "", /choose Resume to continue where it stopped$/);
    assert.doesNotMatch(failed.error ?? "", /command|islet /);
    await a.call("models/download", { name: url });
    const done = await until(a, "done");
    assert.equal(done.received, body.length);
    assert.equal(
      cut.requests.at(-1)?.range,
      `bytes=${failed.partial}-`,
      "resumed from the partial file",
    );
  } finally {
    await h.close();
    await cut.close();
  }
});

test("with no model at all, opening the app's chat fails with the get_model remedy the app turns into buttons", async () => {
  const h = await startSettingsHarness([], {}, { providers: false });
  const a = recordingClient(h.host.service);
  try {
    // The app's first prompt opens its conversation: the refusal carries the remedy, and the
    // CLI's words stay the engine's (`islet run` prints them).
    await assert.rejects(a.call("chat/open", {}), (err: unknown) => {
      const problem = (err as { problem?: { remedy?: string; title: string } }).problem;
      assert.equal(problem?.remedy, "get_model");
      assert.match(problem?.title ?? "", /islet models pull/);
      return true;
    });
  } finally {
    await h.close();
  }
});

test("from a URL: only http and https; a file on disk is added through models/addFile, checked", async () => {
  const h = await startSettingsHarness([], {}, { providers: false });
  const a = recordingClient(h.host.service);
  try {
    for (const url of ["file:///etc/passwd", "javascript:alert(1)", "data:text/plain,GGUF"])
      await assert.rejects(a.call("models/download", { name: url }), {
        message: /only http and https URLs can be downloaded/,
      });
    const file = path.join(h.dirs.path("work"), "Tiny.gguf");
    await writeFile(file, body);
    await assert.rejects(a.call("models/addFile", { path: "/etc/passwd" }), {
      message: /not a GGUF model file/,
    });
    assert.deepEqual(await a.call("models/addFile", { path: file }), { name: "Tiny" });
    await a.next("settings/changed");
    const listed = (await a.call("models/local", undefined)) as { models: { name: string }[] };
    assert.deepEqual(
      listed.models.map((m) => m.name),
      ["Tiny"],
    );
  } finally {
    await h.close();
  }
});

test("the desktop app's open dialog gives a path; under `islet serve` there is none to open", async () => {
  const picked: (string | null)[] = ["/home/me/Downloads/pick.gguf", null];
  const desktop = await startSettingsHarness(
    [],
    {},
    {
      providers: false,
      pickModelFile: async () => picked.shift() ?? null,
    },
  );
  const served = await startSettingsHarness([], {}, { providers: false });
  try {
    const a = recordingClient(desktop.host.service);
    assert.deepEqual(await a.call("models/pickFile", undefined), {
      path: "/home/me/Downloads/pick.gguf",
    });
    assert.deepEqual(await a.call("models/pickFile", undefined), { path: null });
    await assert.rejects(recordingClient(served.host.service).call("models/pickFile", undefined), {
      message: /there is no file dialog here.*type or paste/,
    });
  } finally {
    await desktop.close();
    await served.close();
  }
});
