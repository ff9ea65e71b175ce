/**
 * `npm run bench`: every benchmark of SPEC §11 that exists so far, each against a baseline
 * measured in the same run. Prints a table and writes bench/results/latest.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { benchProviderParsing } from "./providers-bench.ts";
import { benchSessionLoad } from "./sessions-bench.ts";
import { benchTurnOverhead } from "./turn-bench.ts";

interface Row {
  figure: string;
  value: number;
  unit: string;
  baseline: string;
  ratio: string;
  goal: string;
  met: boolean | null;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const rows: Row[] = [];

for (const r of await benchProviderParsing()) {
  rows.push({
    figure: r.name,
    value: Math.round(r.value),
    unit: r.unit,
    baseline: r.baseline
      ? `${r.baseline.name}: ${Math.round(r.baseline.value).toLocaleString("en")} ${r.baseline.unit}`
      : "",
    ratio: r.ratio !== undefined ? `×${round(r.ratio)} slower than baseline` : "",
    goal: "≥ 100,000 tokens/s",
    met: r.value >= 100_000,
  });
}

const session = await benchSessionLoad();
rows.push({
  figure: `session load (${session.messages.toLocaleString("en")} messages)`,
  value: round(session.ms, 1),
  unit: "ms (median)",
  baseline: `raw readFile + JSON.parse per line: ${round(session.baselineMs, 1)} ms`,
  ratio: `×${round(session.ms / session.baselineMs)}`,
  goal: "< 300 ms",
  met: session.ms < 300,
});

const turn = await benchTurnOverhead();
rows.push({
  figure: "agent turn, 3 tool calls + 2,000-token answer, 10 hook handlers",
  value: round(turn.engineMs),
  unit: "ms (median)",
  baseline: `minimal raw loop: ${round(turn.rawMs)} ms`,
  ratio: `×${round(turn.ratio)}`,
  goal: "≤ 1.3× raw loop",
  met: turn.ratio <= 1.3,
});

console.table(
  rows.map(({ figure, value, unit, ratio, goal, met }) => ({
    figure,
    value,
    unit,
    ratio,
    goal,
    met,
  })),
);
for (const r of rows) if (r.baseline) console.log(`${r.figure}\n    baseline ${r.baseline}`);

const machine = {
  node: process.version,
  cpus: os.cpus().length,
  cpu: os.cpus()[0]?.model ?? "",
  platform: `${os.platform()} ${os.arch()}`,
};
mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
writeFileSync(
  new URL("./results/latest.json", import.meta.url),
  `${JSON.stringify({ date: new Date().toISOString(), machine, rows }, null, 2)}\n`,
);
console.log("\nwrote bench/results/latest.json");
