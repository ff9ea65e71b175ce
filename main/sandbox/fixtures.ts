/**
 * Realistic inputs for sandbox benchmarks and tests: a hook context shaped like the SDK's Context
 * (~10 KB of JSON with 40 chat turns) and a bundled-plugin-sized module.
 */
import type { Context } from "../../plugins/sdk/index.ts";

/** A beforeChat hook (sync and async) that reads the context like real hooks do. */
export const SAMPLE_HOOK = `export function beforeChat(ctx) {
  if (ctx.tokens.percent > 90 || ctx.turns.length > 200) return { message: "compact soon", eject: true };
  return undefined;
}
export async function beforeChatAsync(ctx) { return beforeChat(ctx); }`;

export function sampleContext(turns = 40): Context {
  const sentence =
    "Refactor the session store so that writes are atomic and a crash loses nothing. ";
  return {
    iteration: 3,
    tokens: { estimate: 12_400, lastApi: 12_100, percent: 9, max: 131_072 },
    agent: "coder",
    mode: "default",
    modelInfo: {
      name: "qwen3:14b",
      family: "qwen3",
      parameterCount: 14e9,
      contextLength: 131_072,
      capabilities: ["tools", "thinking"],
    },
    stats: {
      startTime: "2026-11-02T10:00:00.000Z",
      duration: 95_000,
      interactions: 20,
      turns: 40,
      iterations: 55,
      tools: { calls: 31, errors: 2 },
      parseRetries: 0,
      compactions: 0,
      tokens: { in: 52_000, out: 9_800 },
      topTools: [
        { name: "read", count: 14 },
        { name: "patch", count: 9 },
        { name: "bash", count: 8 },
      ],
    },
    workdir: "/home/dev/projects/islet",
    messageCount: 96,
    auto: false,
    doneActive: false,
    hasToolCalls: true,
    maxSteps: 50,
    response: { empty: false, contentEmpty: false },
    todo: { pending: 2, inProgress: 1, total: 6 },
    patchCounts: { "main/sessions/store.ts": 3 },
    toolHistory: [
      "main/sessions/store.ts",
      "main/sessions/index.ts",
      "main/sessions/store.test.ts",
    ].map((path, i) => ({
      name: "read",
      args: { path },
      argsJson: JSON.stringify({ path }),
      result: `export function save(session) { /* ${i} */ }\n`.repeat(6),
      error: "",
      duration: 3 + i,
    })),
    session: { id: "s-20261102-1", title: "Atomic session writes" },
    provider: "ollama",
    thinkMode: "off",
    features: {
      sandbox: { enabled: false, requested: false },
      readBeforeWrite: true,
      showThinking: false,
      compactionEnabled: true,
    },
    availableTools: ["read", "write", "patch", "bash", "glob", "grep", "todo"],
    loadedTools: ["read", "write", "patch", "bash"],
    turns: Array.from({ length: turns }, (_, i) => ({
      role: i % 2 === 0 ? ("user" as const) : ("assistant" as const),
      content: `${sentence.repeat(2)}(turn ${i})`,
    })),
    systemPrompt: "You are a careful coding agent.",
    mcpServers: [],
    vars: {},
    pluginConfig: { threshold: 90 },
  };
}

/** A ~50 KB module: many small functions and a table, like a bundled plugin with a helper library. */
export function moduleOfSize(bytes = 50_000): string {
  const parts = [SAMPLE_HOOK];
  for (let i = 0; parts.join("\n").length < bytes; i++) {
    parts.push(`function helper${i}(items, limit = ${i % 17}) {
  const out = [];
  for (const item of items) if (typeof item === "string" && item.length > limit) out.push(item.slice(0, limit) + "#${i}");
  return out.length > 0 ? { index: ${i}, out } : null;
}
export const table${i} = { id: ${i}, name: "entry-${i}", tags: ["a${i % 5}", "b${i % 7}"], run: helper${i} };`);
  }
  return parts.join("\n");
}
