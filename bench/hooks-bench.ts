/**
 * Claude Code hooks at the scale of a marketplace: one turn (a prompt and one Bash call) through
 * the real engine with 13 hook files in the shape of anthropics/claude-code's plugins (hooks on
 * SessionStart, UserPromptSubmit, PreToolUse Bash, PostToolUse and Stop, each command sleeping
 * 50–200 ms as a small script would), against the same turn with no hooks. The hooks' added time
 * is compared with the slowest hook of each event the turn reaches, added up: hooks of one event
 * run at once, so that is what they should cost (goal: ≤ 1.1×), not the sum of them all.
 *
 * Run alone: node --no-node-snapshot bench/one.ts hooks
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngine } from "../main/engine/bootstrap.ts";
import { formatProblem } from "../main/host/problem.ts";
import { YES_FOR_THIS_RUN } from "../main/host/questions.ts";
import { startFakeOpenAI } from "../main/providers/testing/fake-openai.ts";
import type { Figure } from "./figure.ts";

const PLUGINS = 13;
const RUNS = 5;
const EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"] as const;

/** Plugin i's hook on an event sleeps this long (ms): spread so one hook is the slowest. */
const sleepMs = (plugin: number, event: number) => 50 + ((plugin * 7 + event * 3) % 13) * 12;

function writeHooks(home: string): void {
  mkdirSync(join(home, "config", "hooks"), { recursive: true });
  for (let p = 0; p < PLUGINS; p++) {
    const hooks = Object.fromEntries(
      EVENTS.map((event, e) => [
        event,
        [
          {
            ...(event.endsWith("ToolUse") ? { matcher: "Bash" } : {}),
            hooks: [{ type: "command", command: `sleep ${sleepMs(p, e) / 1000}` }],
          },
        ],
      ]),
    );
    writeFileSync(join(home, "config", "hooks", `plugin-${p}.json`), JSON.stringify({ hooks }));
  }
}

/** Milliseconds of one fresh conversation's turn: the prompt, one Bash call, the answer. */
async function oneTurn(withHooks: boolean): Promise<number> {
  const root = mkdtempSync(join(tmpdir(), "islet-hooks-bench-"));
  const home = join(root, "home");
  mkdirSync(home, { recursive: true });
  if (withHooks) writeHooks(home);
  const model = await startFakeOpenAI([
    { toolCalls: [{ name: "Bash", arguments: { command: "echo hi" } }] },
    { text: ["Done."] },
  ]);
  const engine = await createEngine({
    home,
    workdir: root,
    env: {},
    questions: YES_FOR_THIS_RUN,
    flags: { provider: "openai-compatible", baseUrl: model.url, model: "m" },
    warn: (p) => {
      throw new Error(formatProblem(p));
    },
  });
  try {
    const conv = await engine.open({ emit: () => {} });
    const started = performance.now();
    await conv.submit("say hi with Bash");
    const ms = performance.now() - started;
    await conv.close();
    return ms;
  } finally {
    await engine.close();
    await model.close();
    rmSync(root, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchHooks(): Promise<Figure[]> {
  const without: number[] = [];
  const withHooks: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    without.push(await oneTurn(false));
    withHooks.push(await oneTurn(true));
  }
  const added = median(withHooks) - median(without);
  // Each event once in this turn (Stop once, at the answer): its slowest hook.
  const slowest = EVENTS.reduce(
    (sum, _e, e) => sum + Math.max(...Array.from({ length: PLUGINS }, (_, p) => sleepMs(p, e))),
    0,
  );
  const all = EVENTS.reduce(
    (sum, _e, e) =>
      sum + Array.from({ length: PLUGINS }, (_, p) => sleepMs(p, e)).reduce((a, b) => a + b),
    0,
  );
  return [
    {
      name: `hooks added to a turn (${PLUGINS} hook files × ${EVENTS.length} events; all in a row would be ${Math.round(all)} ms)`,
      value: Math.round(added),
      unit: "ms (median)",
      baseline: { name: "slowest hook of each event, added up", value: slowest, unit: "ms" },
      ratio: Math.round((added / slowest) * 100) / 100,
    },
  ];
}
