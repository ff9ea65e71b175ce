/**
 * `npm run bench`: every benchmark of SPEC §11, each against a baseline measured in the same run,
 * one process per group (bench/one.ts). Prints a table and writes bench/results/latest.json.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import type { Figure } from "./figure.ts";
import { GROUPS } from "./one.ts";

interface Row extends Figure {
  goal: string;
  met: boolean | null;
}

/** SPEC §11 goals, by figure. */
function goalOf(f: Figure): { goal: string; met: boolean | null } {
  const n = f.name;
  if (/^provider (parse|stream)/.test(n))
    return { goal: "≥ 100,000 tokens/s", met: f.value >= 100_000 };
  if (/^session load/.test(n)) return { goal: "< 300 ms", met: f.value < 300 };
  // chat/history reads the same file with every display event checked (goal: open < 500 ms).
  if (/^session history/.test(n)) return { goal: "< 500 ms", met: f.value < 500 };
  if (/^agent turn/.test(n)) return { goal: "≤ 1.3× raw loop", met: (f.ratio ?? Infinity) <= 1.3 };
  if (/^MCP tool call/.test(n))
    return { goal: "≤ 1.2× direct JSON-RPC", met: (f.ratio ?? Infinity) <= 1.2 };
  if (/^hook dispatch \(QuickJS\), sync/.test(n))
    return { goal: "≤ 10× isolated-vm", met: (f.ratio ?? Infinity) <= 10 };
  if (/^hook dispatch, sync/.test(n))
    return { goal: "≤ 1.5× floor", met: (f.ratio ?? Infinity) <= 1.5 };
  if (/^worker_threads round trip/.test(n))
    return { goal: "slower than dispatch", met: (f.ratio ?? 0) > 1 };
  if (/^beforeChat pipeline/.test(n)) return { goal: "< 0.5 ms median", met: f.value < 0.5 };
  if (/^plugin load, cold/.test(n)) return { goal: "< 30 ms median", met: f.value < 30 };
  if (/^plugin load, warm/.test(n)) return { goal: "< 5 ms median", met: f.value < 5 };
  if (/^hot reload/.test(n)) return { goal: "< 150 ms p95", met: f.value < 150 };
  if (/^idle plugin/.test(n)) return { goal: "< 5 MB", met: f.value < 5 };
  // A frame interval is a whole number of refreshes: p95 on time means within one (16.7 ms).
  if (/^editor save/.test(n)) return { goal: "< 150 ms p95", met: f.value < 150 };
  if (/^chat (streaming|scroll)/.test(n))
    return { goal: "p95 within one refresh", met: f.value < 17 };
  if (/^chat open/.test(n)) return { goal: "< 500 ms", met: f.value < 500 };
  if (/^skills and commands listed/.test(n)) return { goal: "< 1 ms", met: f.value < 1 };
  if (/^hooks added to a turn/.test(n))
    return { goal: "≤ 1.1× slowest per event", met: (f.ratio ?? Infinity) <= 1.1 };
  if (/^pack (install|update)/.test(n))
    return { goal: "≤ 1.5× plain git", met: (f.ratio ?? Infinity) <= 1.5 };
  // The embedded runtime: ratios to node-llama-cpp itself, measured in the same run.
  if (/^local: tokens\/s/.test(n))
    return { goal: "≥ 0.95× node-llama-cpp", met: (f.ratio ?? 0) >= 0.95 };
  if (/^local: time to first token/.test(n))
    return { goal: "≤ 1.5× turn 1", met: (f.ratio ?? Infinity) <= 1.5 };
  if (/^local: runtime process start/.test(n))
    return { goal: "≤ 1.2× in-process", met: (f.ratio ?? Infinity) <= 1.2 };
  if (/^local: Stop/.test(n)) return { goal: "< 100 ms", met: f.value < 100 };
  // The ecosystem: 300 generated plugins (bench/ecosystem-bench.ts).
  if (/^engine start → first model request, CPU/.test(n)) return { goal: "", met: null };
  if (/^engine start → first model request/.test(n))
    return { goal: "< 500 ms", met: f.value < 500 };
  if (/^first request: the extensions' share/.test(n))
    return { goal: "≤ 10% of the window", met: f.value <= 10 };
  if (/^a later turn with /.test(n))
    return { goal: "≤ 1.2× none", met: (f.ratio ?? Infinity) <= 1.2 };
  if (/^RSS, engine with/.test(n)) return { goal: "< 300 MB", met: f.value < 300 };
  return { goal: "", met: null };
}

const one = fileURLToPath(new URL("./one.ts", import.meta.url));
const figures: Figure[] = [];
for (const group of Object.keys(GROUPS)) {
  process.stderr.write(`bench: ${group}…\n`);
  const out = execFileSync(process.execPath, ["--no-node-snapshot", one, group], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  figures.push(...(JSON.parse(out.trim().split("\n").pop()!) as Figure[]));
}

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;
const rows: Row[] = figures.map((f) => ({ ...f, ...goalOf(f) }));
console.table(
  rows.map((r) => ({
    figure: r.name,
    value: Math.abs(r.value) >= 1000 ? Math.round(r.value) : round(r.value),
    unit: r.unit,
    ratio: r.ratio !== undefined ? `×${round(r.ratio, 2)}` : "",
    goal: r.goal,
    met: r.met ?? "",
  })),
);
for (const r of rows)
  if (r.baseline)
    console.log(
      `${r.name}\n    baseline: ${r.baseline.name}: ${round(r.baseline.value)} ${r.baseline.unit}`,
    );

const machine = {
  node: process.version,
  cpus: os.cpus().length,
  cpu: os.cpus()[0]?.model ?? "",
  platform: `${os.platform()} ${os.arch()}`,
  load: os.loadavg(),
};
mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
writeFileSync(
  new URL("./results/latest.json", import.meta.url),
  `${JSON.stringify({ date: new Date().toISOString(), machine, rows }, null, 2)}\n`,
);
console.log("\nwrote bench/results/latest.json");
