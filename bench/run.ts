/**
 * `npm run bench`: every benchmark of SPEC §11 that exists so far, each against a baseline
 * measured in the same run. Prints a table and writes bench/results/latest.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { benchPluginLoad } from "./loader-bench.ts";
import { benchPlugins } from "./plugins-bench.ts";
import { benchProviderParsing } from "./providers-bench.ts";
import { benchHookDispatch } from "./sandbox-bench.ts";
import { benchSessionLoad } from "./sessions-bench.ts";
import { benchTurnOverhead } from "./turn-bench.ts";

interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline?: { name: string; value: number; unit: string };
  ratio?: number;
}

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
  if (/^agent turn/.test(n)) return { goal: "≤ 1.3× raw loop", met: (f.ratio ?? Infinity) <= 1.3 };
  if (/^hook dispatch, sync/.test(n))
    return { goal: "≤ 1.5× floor", met: (f.ratio ?? Infinity) <= 1.5 };
  if (/^hook dispatch \(QuickJS\), sync/.test(n))
    return { goal: "≤ 10× isolated-vm", met: (f.ratio ?? Infinity) <= 10 };
  if (/^worker_threads round trip/.test(n))
    return { goal: "slower than dispatch", met: (f.ratio ?? 0) > 1 };
  if (/^beforeChat pipeline/.test(n)) return { goal: "< 0.5 ms median", met: f.value < 0.5 };
  if (/^plugin load, cold/.test(n)) return { goal: "< 30 ms median", met: f.value < 30 };
  if (/^plugin load, warm/.test(n)) return { goal: "< 5 ms median", met: f.value < 5 };
  if (/^hot reload/.test(n)) return { goal: "< 150 ms p95", met: f.value < 150 };
  if (/^idle plugin/.test(n)) return { goal: "< 5 MB", met: f.value < 5 };
  return { goal: "", met: null };
}

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;
const figures: Figure[] = [];

figures.push(...(await benchProviderParsing()));
const session = await benchSessionLoad();
figures.push({
  name: `session load (${session.messages.toLocaleString("en")} messages)`,
  value: round(session.ms, 1),
  unit: "ms (median)",
  baseline: {
    name: "raw readFile + JSON.parse per line",
    value: round(session.baselineMs, 1),
    unit: "ms",
  },
  ratio: round(session.ms / session.baselineMs, 2),
});
const turn = await benchTurnOverhead();
figures.push({
  name: "agent turn, 3 tool calls + 2,000-token answer, 10 plugin isolates",
  value: round(turn.engineMs, 2),
  unit: "ms (median)",
  baseline: { name: "minimal raw loop", value: round(turn.rawMs, 2), unit: "ms" },
  ratio: round(turn.ratio, 2),
});
figures.push(...(await benchHookDispatch()));
figures.push(...(await benchPlugins()));
figures.push(...(await benchPluginLoad()));

const rows: Row[] = figures.map((f) => ({ ...f, ...goalOf(f) }));
console.table(
  rows.map((r) => ({
    figure: r.name,
    value: Math.abs(r.value) >= 1000 ? Math.round(r.value) : r.value,
    unit: r.unit,
    ratio: r.ratio !== undefined ? `×${round(r.ratio, 2)}` : "",
    goal: r.goal,
    met: r.met ?? "",
  })),
);
for (const r of rows)
  if (r.baseline)
    console.log(
      `${r.name}\n    baseline: ${r.baseline.name}: ${r.baseline.value} ${r.baseline.unit}`,
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
