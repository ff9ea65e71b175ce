/**
 * gotify through the real engine, against a loopback HTTP server standing in for Gotify. The
 * shipped plugin.yaml names a placeholder host; like a user would, the tests point it at theirs.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { toolsCommand } from "../../../main/cli/tools-command.ts";
import { startPluginHarness, type PluginHarness } from "../../../main/engine/testing.ts";

const shippedYaml = readFileSync(new URL("./plugin.yaml", import.meta.url), "utf8");
const code = readFileSync(new URL("./index.ts", import.meta.url), "utf8");
const layout = { gotify: "tools/gotify" };
const TOKEN = "AbC.d3f-Token";

/** The shipped manifest with the network permission pointed at the loopback server. */
function yamlFor(host: string): string {
  const out = shippedYaml.replace("host: gotify.example.com", `host: ${host}`);
  assert.notEqual(out, shippedYaml, "the placeholder host is in plugin.yaml");
  return out;
}

interface Received {
  method: string;
  url: string;
  contentType: string;
  body: unknown;
}

async function fakeGotify(
  reply: (r: Received) => { status: number; body: unknown },
): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
    req.on("end", () => {
      const r: Received = {
        method: req.method ?? "",
        url: req.url ?? "",
        contentType: req.headers["content-type"] ?? "",
        body: raw ? (JSON.parse(raw) as unknown) : undefined,
      };
      received.push(r);
      const { status, body } = reply(r);
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, received };
}

/** An agent that enables the opt-in tool by name (a "*" alone does not). */
const NOTIFIER = {
  agents: {
    notifier:
      '---\ndescription: sends notifications\ntools: ["*", Gotify]\n---\nYou notify the user.\n',
  },
  agent: "notifier",
};

/** `islet tools Gotify KEY=VALUE…`: the real registry and CLI path, no model involved. */
async function islet(h: PluginHarness, ...words: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await toolsCommand(h.engine.tools, ["Gotify", ...words], h.workdir, {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
  });
  return { code, out: out.join(""), err: err.join("") };
}

function offered(h: PluginHarness, i: number): string[] {
  const body = h.server.chatRequests[i].body as { tools?: { function: { name: string } }[] };
  return (body.tools ?? []).map((t) => t.function.name);
}

const GOTIFY_OK = {
  status: 200,
  body: { id: 42, appid: 1, message: "m", title: "t", priority: 8, date: "2026-01-01T00:00:00Z" },
};

test("`islet tools Gotify`: the notification POST reaches Gotify with the token", async () => {
  const gotify = await fakeGotify(() => GOTIFY_OK);
  const h = await startPluginHarness({
    plugins: { gotify: { yaml: yamlFor("127.0.0.1"), code } },
    layout,
    env: { GOTIFY_URL: `${gotify.url}/`, GOTIFY_TOKEN: TOKEN },
  });
  try {
    const r = await islet(h, "title=Build", "message=The build passed.", "priority=8");
    assert.deepEqual(r, {
      code: 0,
      out: 'Notification sent (id 42): "Build" with priority 8.\n',
      err: "",
    });
    assert.equal(gotify.received.length, 1);
    const got = gotify.received[0];
    assert.equal(got.method, "POST");
    assert.equal(got.url, `/message?token=${encodeURIComponent(TOKEN)}`);
    assert.match(got.contentType, /^application\/json/);
    assert.deepEqual(got.body, { title: "Build", message: "The build passed.", priority: 8 });
    // Defaults: title Islet, priority 5.
    assert.equal((await islet(h, "message=hi")).code, 0);
    assert.deepEqual(gotify.received[1].body, { title: "Islet", message: "hi", priority: 5 });
    // Out of range priorities are refused before anything is sent.
    const bad = await islet(h, "message=hi", "priority=11");
    assert.equal(bad.code, 1);
    assert.match(bad.err, /priority must be a whole number from 0 to 10, got 11/);
    assert.equal(gotify.received.length, 2);
  } finally {
    await h.close();
    gotify.server.close();
  }
});

test("the model calls Gotify and gets the outcome", async () => {
  const gotify = await fakeGotify(() => GOTIFY_OK);
  const h = await startPluginHarness({
    plugins: { gotify: { yaml: yamlFor("127.0.0.1"), code } },
    layout,
    ...NOTIFIER,
    env: { GOTIFY_URL: gotify.url, GOTIFY_TOKEN: TOKEN },
    script: [
      {
        toolCalls: [
          {
            name: "Gotify",
            arguments: { title: "Build", message: "The build passed.", priority: 8 },
          },
        ],
      },
      { text: ["I sent you a notification."] },
    ],
  });
  try {
    await h.conversation.submit("tell me on my phone when the build is done");
    assert.ok(offered(h, 0).includes("Gotify"), `offered: ${offered(h, 0).join(", ")}`);
    assert.deepEqual(gotify.received[0]?.body, {
      title: "Build",
      message: "The build passed.",
      priority: 8,
    });
    assert.deepEqual(
      h.of("tool_result").map((t) => [t.name, t.error, t.output]),
      [["Gotify", false, 'Notification sent (id 42): "Build" with priority 8.']],
    );
    assert.equal(h.sent(1).at(-1)?.content, 'Notification sent (id 42): "Build" with priority 8.');
  } finally {
    await h.close();
    gotify.server.close();
  }
});

test("opt-in: registered, but not offered to an agent that does not name it", async () => {
  const h = await startPluginHarness({
    plugins: { gotify: { yaml: yamlFor("127.0.0.1"), code } },
    layout,
    env: { GOTIFY_URL: "http://127.0.0.1:9", GOTIFY_TOKEN: TOKEN },
    script: [{ text: ["hi"] }],
  });
  try {
    assert.equal(h.engine.tools.get("Gotify")?.optIn, true);
    await h.conversation.submit("hello");
    assert.ok(offered(h, 0).includes("Read"));
    assert.ok(!offered(h, 0).includes("Gotify"), "the default agent's * does not enable it");
  } finally {
    await h.close();
  }
});

test("without GOTIFY_URL and GOTIFY_TOKEN the tool is not registered", async () => {
  const envs: Record<string, string>[] = [
    {},
    { GOTIFY_URL: "http://127.0.0.1:9" },
    { GOTIFY_TOKEN: TOKEN },
  ];
  for (const env of envs) {
    const h = await startPluginHarness({
      plugins: { gotify: { yaml: yamlFor("127.0.0.1"), code } },
      layout,
      env,
    });
    try {
      assert.equal(h.engine.tools.get("Gotify"), undefined, JSON.stringify(env));
      assert.equal(h.engine.plugins!.get("gotify")?.plugin.status, "active");
      assert.ok(
        h.warnings.some((w) =>
          /^gotify: available\(\) returned false: the tool is not registered/.test(w),
        ),
        JSON.stringify(h.warnings),
      );
    } finally {
      await h.close();
    }
  }
});

test("failures are clear tool errors and never show the token", async () => {
  const refusing = await fakeGotify(() => ({
    status: 401,
    body: {
      error: "Unauthorized",
      errorCode: 401,
      errorDescription:
        "you need to provide a valid access token or user credentials to access this api",
    },
  }));
  const closed = await fakeGotify(() => GOTIFY_OK);
  await new Promise<void>((resolve) => closed.server.close(() => resolve()));
  const attempt = async (url: string, yaml: string): Promise<string> => {
    const h = await startPluginHarness({
      plugins: { gotify: { yaml, code } },
      layout,
      env: { GOTIFY_URL: url, GOTIFY_TOKEN: TOKEN },
    });
    try {
      const r = await islet(h, "message=hello");
      assert.equal(r.code, 1);
      assert.ok(!r.err.includes(TOKEN), r.err);
      assert.ok(!r.err.includes(encodeURIComponent(TOKEN)), r.err);
      return r.err;
    } finally {
      await h.close();
    }
  };
  try {
    assert.match(
      await attempt(refusing.url, yamlFor("127.0.0.1")),
      /Gotify refused the notification \(HTTP 401\): Unauthorized: you need to provide a valid access token/,
    );
    assert.match(
      await attempt(closed.url, yamlFor("127.0.0.1")),
      /could not reach Gotify: .*message\?token=\*\*\*/,
    );
    // The shipped placeholder host: nothing is sent, and the error says what to change.
    assert.match(
      await attempt(refusing.url, shippedYaml),
      /no network permission for 127\.0\.0\.1:\d+: add it to permissions\.network in plugin\.yaml/,
    );
    assert.equal(refusing.received.length, 1, "only the permitted attempt reached the server");
  } finally {
    refusing.server.close();
  }
});

test("title and priority defaults come from the plugin config (features config.local.gotify)", async () => {
  const gotify = await fakeGotify(() => ({ status: 200, body: { id: 3 } }));
  const h = await startPluginHarness({
    plugins: { gotify: { yaml: yamlFor("127.0.0.1"), code } },
    layout,
    env: { GOTIFY_URL: gotify.url, GOTIFY_TOKEN: TOKEN },
    features: "plugins:\n  config:\n    local:\n      gotify: { title: CI, priority: 2 }\n",
  });
  try {
    assert.equal((await islet(h, "message=done")).code, 0);
    assert.deepEqual(gotify.received[0]?.body, { title: "CI", message: "done", priority: 2 });
    // What the model passes still wins.
    assert.equal((await islet(h, "message=done", "title=Deploy", "priority=9")).code, 0);
    assert.deepEqual(gotify.received[1]?.body, { title: "Deploy", message: "done", priority: 9 });
  } finally {
    await h.close();
    gotify.server.close();
  }
});
