/**
 * Islet with a plugin ecosystem: 300 generated plugins in the real marketplaces' shapes
 * (main/extensions/testing/ecosystem.ts: Claude Code plugins with their commands, skills, agents,
 * hooks and MCP servers, and code plugins), against the same engine with none, in the same run.
 * Each start is a fresh process (ecosystem-start.ts), started as `islet serve` starts an engine,
 * on a warm disk (one start of each before measuring). Figures: engine start to the first model
 * request (goal < 500 ms), the extensions' share of that request in an 8k-token window (goal
 * ≤ 10%), a later turn (goal ≤ 1.2× none; also with Claude Code plugins only, to tell the
 * extensions' own cost from code plugins' hooks) and the RSS with a conversation open (goal
 * < 300 MB).
 *
 * Run alone: node --no-node-snapshot bench/ecosystem-bench.ts
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { setTimeout as sleep } from "node:timers/promises";
import { writeEcosystem } from "../main/extensions/testing/ecosystem.ts";
import { TRUST_AGE_MS } from "../main/config/markdown-index.ts";
import type { Figure } from "./figure.ts";
import { WINDOW, type StartPhases } from "./ecosystem-start.ts";

/**
 * Processes per side. Their later turns spread ±20% from process to process (the baseline's
 * median moved 1.7–2.2 ms between runs of five): nine, each paired with the baseline run just
 * before it, and the turn's ratio is the median of the pairs' ratios.
 */
const RUNS = 9;
/**
 * The later turns are timed twice: in the 8k window, where the prompt budget chooses what each
 * turn offers, and in a window nothing fills, where every extension is offered in every request.
 */
const TURN_RUNS = 3;
const WIDE_WINDOW = 1_000_000;
const PLUGINS = 300;
const START = path.join(import.meta.dirname, "ecosystem-start.ts");
const run = promisify(execFile);

async function start(home: string, workdir: string, window: number): Promise<StartPhases> {
  const args = ["--no-node-snapshot", START, home, workdir, String(window)];
  const { stdout } = await run(process.execPath, args, { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split("\n").pop()!) as StartPhases;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
/** The engine's own estimate: ~4 characters a token (main/turn/tokens.ts). */
const tokens = (p: StartPhases) => Math.ceil((p.systemChars + p.toolsChars) / 4);

export async function benchEcosystem(): Promise<Figure[]> {
  const root = mkdtempSync(path.join(tmpdir(), "islet-ecosystem-bench-"));
  try {
    const homes = {
      with: path.join(root, "with"),
      none: path.join(root, "none"),
      claude: path.join(root, "claude"),
    };
    for (const h of Object.values(homes)) mkdirSync(path.join(h, "work"), { recursive: true });
    writeEcosystem(path.join(homes.with, "home"), { plugins: PLUGINS, seed: 1 });
    // The same number of Claude Code plugins and no code plugin: what a turn pays for the
    // extensions themselves, apart from code plugins' hooks running in their isolates.
    writeEcosystem(path.join(homes.claude, "home"), { plugins: PLUGINS, seed: 1, codeEvery: 0 });
    const once = (h: string, window = WINDOW) =>
      start(path.join(h, "home"), path.join(h, "work"), window);
    // Warm the disk and the caches (bundles, frontmatter, markdown index) a first start writes;
    // the index trusts only files older than the filesystem's clock granularity.
    await sleep(TRUST_AGE_MS);
    await once(homes.with);
    await once(homes.none);
    await once(homes.claude);
    const claudeOnly: StartPhases[] = [];
    const runs: { with: StartPhases[]; none: StartPhases[] } = { with: [], none: [] };
    const wide: { with: StartPhases[]; none: StartPhases[] } = { with: [], none: [] };
    for (let i = 0; i < RUNS; i++) {
      runs.with.push(await once(homes.with));
      runs.none.push(await once(homes.none));
      if (i >= TURN_RUNS) continue;
      claudeOnly.push(await once(homes.claude));
      wide.with.push(await once(homes.with, WIDE_WINDOW));
      wide.none.push(await once(homes.none, WIDE_WINDOW));
    }
    const m = (which: "with" | "none", f: (p: StartPhases) => number) => median(runs[which].map(f));
    const w = (which: "with" | "none", f: (p: StartPhases) => number) => median(wide[which].map(f));
    const engineStart = (p: StartPhases) => p.firstRequest - p.imported;
    const startWith = m("with", engineStart);
    const startNone = m("none", engineStart);
    const cpuWith = m("with", (p) => p.startCpuMs);
    const cpuNone = m("none", (p) => p.startCpuMs);
    const processWith = m("with", (p) => p.firstRequest);
    const processNone = m("none", (p) => p.firstRequest);
    const share = ((m("with", tokens) - m("none", tokens)) / WINDOW) * 100;
    const turnWith = w("with", (p) => p.turnMs);
    const turnNone = w("none", (p) => p.turnMs);
    const turn8kWith = m("with", (p) => p.turnMs);
    const turn8kNone = m("none", (p) => p.turnMs);
    // Each process against the baseline process run next to it: a drift in the machine's load
    // falls on both.
    const paired = (xs: StartPhases[], f: (p: StartPhases) => number) =>
      median(xs.map((p, i) => f(p) / f(runs.none[i]!)));
    const turnCpuWith = m("with", (p) => p.turnCpuMs);
    const turnCpuNone = m("none", (p) => p.turnCpuMs);
    const rssWith = m("with", (p) => p.rssMb);
    const rssNone = m("none", (p) => p.rssMb);
    return [
      {
        name: `engine start → first model request, ${PLUGINS} plugins (median of ${RUNS} processes)`,
        value: round(startWith),
        unit: "ms",
        baseline: { name: "the same with no plugins", value: round(startNone), unit: "ms" },
        ratio: round(startWith / startNone, 2),
      },
      {
        // Steadier than the wall clock on a busy machine: what the start itself costs.
        name: `engine start → first model request, CPU time (all threads), ${PLUGINS} plugins`,
        value: round(cpuWith),
        unit: "ms",
        baseline: { name: "the same with no plugins", value: round(cpuNone), unit: "ms" },
        ratio: round(cpuWith / cpuNone, 2),
      },
      {
        name: `process start → first model request, ${PLUGINS} plugins (with module loading)`,
        value: round(processWith),
        unit: "ms",
        baseline: { name: "the same with no plugins", value: round(processNone), unit: "ms" },
        ratio: round(processWith / processNone, 2),
      },
      {
        name: `first request: the extensions' share of an ${WINDOW / 1024}k window`,
        value: round(share),
        unit: "% of the window",
        baseline: {
          name: "the rest of the prompt (no plugins)",
          value: round((m("none", tokens) / WINDOW) * 100),
          unit: "% of the window",
        },
      },
      {
        name: `a later turn with ${PLUGINS} plugins enabled (window not filled)`,
        value: round(turnWith, 2),
        unit: "ms (median)",
        baseline: { name: "the same turn with none", value: round(turnNone, 2), unit: "ms" },
        ratio: round(turnWith / turnNone, 2),
      },
      {
        name: `a later turn with ${PLUGINS} plugins enabled, ${WINDOW / 1024}k window (the budget chooses; ratio: median of ${RUNS} pairs)`,
        value: round(turn8kWith, 2),
        unit: "ms (median)",
        baseline: { name: "the same turn with none", value: round(turn8kNone, 2), unit: "ms" },
        ratio: round(
          paired(runs.with, (p) => p.turnMs),
          2,
        ),
      },
      {
        name: `a later turn with ${PLUGINS} Claude Code plugins and no code plugin, ${WINDOW / 1024}k window`,
        value: round(median(claudeOnly.map((p) => p.turnMs)), 2),
        unit: "ms (median)",
        baseline: { name: "the same turn with none", value: round(turn8kNone, 2), unit: "ms" },
        ratio: round(
          paired(claudeOnly, (p) => p.turnMs),
          2,
        ),
      },
      {
        // Steadier than the wall clock on a busy machine: what the turn itself costs.
        name: `a later turn's CPU time (all threads), ${PLUGINS} plugins, ${WINDOW / 1024}k window`,
        value: round(turnCpuWith, 2),
        unit: "ms per turn",
        baseline: { name: "the same turn with none", value: round(turnCpuNone, 2), unit: "ms" },
        ratio: round(turnCpuWith / turnCpuNone, 2),
      },
      {
        name: `RSS, engine with ${PLUGINS} plugins and a conversation open`,
        value: round(rssWith),
        unit: "MB",
        baseline: { name: "the same with no plugins", value: round(rssNone), unit: "MB" },
        ratio: round(rssWith / rssNone, 2),
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.main) console.log(JSON.stringify(await benchEcosystem(), null, 2));
