/**
 * `islet mcp list`: a real islet process lists a real MCP server (from config/mcp/) and a broken
 * one. `islet run`, a one-shot with no one typing meanwhile, waits for its servers to start.
 */
import assert from "node:assert/strict";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { EVERYTHING } from "../mcp/testing/servers.ts";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import { islet, tempDirs } from "./testing/islet.ts";

test("islet mcp list [--json]: source, status and tools; a broken file is one warning", async () => {
  const dirs = await tempDirs();
  try {
    const mcpDir = path.join(dirs.home, "config", "mcp");
    await mkdir(mcpDir, { recursive: true });
    await writeFile(
      path.join(mcpDir, "everything.yaml"),
      `command: ${JSON.stringify(process.execPath)}\nargs: [${JSON.stringify(EVERYTHING)}, stdio]\n`,
    );
    await writeFile(path.join(mcpDir, "broken.yaml"), "args: [x]\n");
    const common = ["--home", dirs.home, "--workdir", dirs.workdir, "--without-plugins"];
    const json = await islet(["mcp", "list", "--json", ...common]);
    assert.equal(json.code, 0, json.stderr);
    const servers = JSON.parse(json.stdout) as {
      name: string;
      status: string;
      source: string;
      tools: { name: string }[];
    }[];
    assert.deepEqual(
      servers.map((s) => [s.name, s.status]),
      [["everything", "running"]],
    );
    assert.match(servers[0].source, /config\/mcp\/everything\.yaml$/);
    assert.ok(servers[0].tools.some((t) => t.name === "mcp__everything__echo"));
    const warnings = json.stderr.trim().split("\n");
    assert.equal(warnings.length, 1, json.stderr);
    assert.match(
      warnings[0],
      /broken\.yaml: field "broken\.command": a stdio server needs a "command"/,
    );

    const text = await islet(["mcp", "list", ...common]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^everything {2}running {2}stdio {2}.*everything\.yaml$/m);
    assert.match(text.stdout, /^ {2}mcp__everything__echo {2}Echoes back the input string$/m);

    // `islet tools` lists and runs MCP tools too (their servers start to list them).
    const ran = await islet(["tools", "mcp__everything__echo", "message=by hand", ...common]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(ran.stdout, "Echo: by hand\n");
  } finally {
    await rm(dirs.root, { recursive: true, force: true });
  }
});

test("islet run offers the MCP servers' tools on its one turn", async () => {
  const dirs = await tempDirs();
  const model = await startFakeOpenAI([{ text: ["ok"] }]);
  try {
    const mcpDir = path.join(dirs.home, "config", "mcp");
    await mkdir(mcpDir, { recursive: true });
    await writeFile(
      path.join(mcpDir, "everything.yaml"),
      `command: ${JSON.stringify(process.execPath)}\nargs: [${JSON.stringify(EVERYTHING)}, stdio]\n`,
    );
    const ran = await islet([
      ...["run", "--provider", "openai-compatible", "--base-url", model.url, "--model", "m"],
      ...["--home", dirs.home, "--workdir", dirs.workdir, "--without-plugins", "hi"],
    ]);
    assert.equal(ran.code, 0, ran.stderr);
    const body = model.chatRequests[0].body as { tools?: { function: { name: string } }[] };
    const offered = (body.tools ?? []).map((t) => t.function.name);
    assert.ok(offered.includes("mcp__everything__echo"), offered.join(","));
  } finally {
    await model.close();
    await rm(dirs.root, { recursive: true, force: true });
  }
});
