/** .mcp.json and config/mcp/*.yaml read as Claude Code reads them, leniently. */
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { loadMcpConfig } from "./config.ts";
import { formatProblem } from "../host/problem.ts";

const dir = mkdtempSync(path.join(tmpdir(), "islet-mcp-config-"));
function file(name: string, text: string): string {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
}

test("stdio and http servers, ${VAR} and ${VAR:-default} expanded, plugin root substituted", () => {
  const f = file(
    "a.json",
    JSON.stringify({
      mcpServers: {
        fs: {
          command: "${CLAUDE_PLUGIN_ROOT}/bin/server",
          args: ["--token", "${TOKEN}", "--mode=${MODE:-fast}"],
          env: { KEY: "${TOKEN}" },
          cwd: "./work",
        },
        web: {
          type: "http",
          url: "https://${HOST}/mcp",
          headers: { Authorization: "Bearer ${TOKEN}" },
        },
      },
    }),
  );
  const got = loadMcpConfig(f, { pluginRoot: "/plug", env: { TOKEN: "t1", HOST: "h.example" } });
  assert.deepEqual(got.problems, []);
  assert.deepEqual(got.servers, [
    {
      name: "fs",
      source: f,
      transport: "stdio",
      command: "/plug/bin/server",
      args: ["--token", "t1", "--mode=fast"],
      env: { KEY: "t1" },
      cwd: path.resolve("/plug", "work"),
    },
    {
      name: "web",
      source: f,
      transport: "http",
      url: "https://h.example/mcp",
      headers: { Authorization: "Bearer t1" },
    },
  ]);
});

test("the flat form (no mcpServers key) is accepted", () => {
  const f = file("flat.json", JSON.stringify({ one: { command: "srv" } }));
  assert.deepEqual(
    loadMcpConfig(f, { env: {} }).servers.map((s) => s.name),
    ["one"],
  );
});

test("a broken server is one line naming file and field; the others still load", () => {
  const f = file(
    "mixed.json",
    JSON.stringify({
      mcpServers: {
        good: { command: "ok" },
        noCommand: { args: ["x"] },
        badArgs: { command: "x", args: "nope" },
        badType: { type: "sse2", url: "http://x" },
        missingVar: { command: "${NOT_SET_ANYWHERE}" },
      },
    }),
  );
  const got = loadMcpConfig(f, { env: {} });
  assert.deepEqual(
    got.servers.map((s) => s.name),
    ["good"],
  );
  assert.equal(got.problems.length, 4);
  for (const line of got.problems.map(formatProblem)) {
    assert.ok(line.startsWith(`${f}: field "mcpServers.`), line);
    assert.ok(!line.includes("\n"), line);
  }
  assert.match(formatProblem(got.problems[0]), /mcpServers\.noCommand\.command.*needs a "command"/);
  assert.match(formatProblem(got.problems[1]), /mcpServers\.badArgs\.args.*list of strings/);
  assert.match(formatProblem(got.problems[2]), /mcpServers\.badType\.type.*"stdio" or "http"/);
  assert.match(formatProblem(got.problems[3]), /NOT_SET_ANYWHERE is not set/);
});

test("a file that is not JSON is one line; a missing file is nothing", () => {
  const f = file("broken.json", '{"mcpServers": {');
  const got = loadMcpConfig(f);
  assert.deepEqual(got.servers, []);
  assert.equal(got.problems.length, 1);
  assert.match(
    formatProblem(got.problems[0]),
    new RegExp(`^${f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: not valid JSON`),
  );
  assert.deepEqual(loadMcpConfig(path.join(dir, "none.json")), { servers: [], problems: [] });
});

test("config/mcp/NAME.yaml is one server named by its file", () => {
  const f = file("github.yaml", "command: gh-mcp\nargs: [serve]\ndisabled: true\n");
  assert.deepEqual(loadMcpConfig(f, { env: {} }).servers, [
    {
      name: "github",
      source: f,
      disabled: true,
      transport: "stdio",
      command: "gh-mcp",
      args: ["serve"],
      env: {},
    },
  ]);
});
