/**
 * MCP resources through ListMcpResourcesTool and ReadMcpResourceTool, as Claude Code offers them,
 * against server-everything over stdio (its docs folder as demo://resource/static/document/*).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { Contributions } from "../contributions/contributions.ts";
import { newToolSessionState, type ToolContext } from "../tools/types.ts";
import { McpManager } from "../extensions/mcp/manager.ts";
import { LIST_RESOURCES, READ_RESOURCE } from "./resource-tools.ts";
import { crashingStdio, EVERYTHING, everythingStdio } from "./testing/servers.ts";

function ctx(): ToolContext {
  return {
    workdir: tmpdir(),
    signal: new AbortController().signal,
    state: newToolSessionState(),
    timeoutMs: 60_000,
  };
}

test("resources are listed and read through two tools while a server offers them", async () => {
  const ext = new Contributions();
  const manager = new McpManager(ext.mcpServers, ext.registrar(), { warn: () => {} });
  const source = ext.registrar();
  for (const spec of [everythingStdio("ev"), crashingStdio(path.join(tmpdir(), "unused.log"))])
    source.mcpServer({ name: spec.name, source: spec.source, spec });
  try {
    assert.equal(ext.tools.get(LIST_RESOURCES), undefined, "none before a server offers any");
    await manager.startAll();
    const list = ext.tools.get(LIST_RESOURCES)!;
    const read = ext.tools.get(READ_RESOURCE)!;
    assert.equal(list.validate({ server: 3 }).ok, false);
    assert.equal(read.validate({ server: "ev" }).ok, false, "uri is required");

    const listed = JSON.parse(await list.execute({}, ctx())) as { uri: string; server: string }[];
    const doc = listed.find((r) => r.uri === "demo://resource/static/document/architecture.md");
    assert.ok(doc, JSON.stringify(listed.slice(0, 5)));
    assert.equal(doc.server, "ev");
    assert.ok(
      listed.every((r) => r.server === "ev"),
      "the crashing server offers none",
    );

    const text = await read.execute({ server: "ev", uri: doc.uri }, ctx());
    const onDisk = readFileSync(
      path.join(path.dirname(EVERYTHING), "docs", "architecture.md"),
      "utf8",
    );
    assert.equal(text, onDisk);
    await assert.rejects(
      read.execute({ server: "crashy", uri: doc.uri }, ctx()),
      /no MCP server "crashy" offers resources; those that do: ev/,
    );

    await manager.disable("ev");
    assert.equal(
      ext.tools.get(LIST_RESOURCES),
      undefined,
      "gone with the last server offering any",
    );
  } finally {
    await manager.close();
  }
});
