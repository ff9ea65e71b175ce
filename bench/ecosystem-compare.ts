/**
 * This checkout's engine start against another checkout's (an older commit), on the same 300
 * generated plugins, in alternating fresh processes (ecosystem-start.ts of each), so both see the
 * same load on a shared machine. Each keeps its own caches in its own copy of the home (the older
 * engine does not know the newer one's files). Prints the medians: engine start → first model
 * request, its CPU time, RSS, and the later turns (wall and CPU).
 *
 * git archive BASE | tar -x -C /tmp/base && ln -s "$PWD/node_modules" /tmp/base/node_modules
 * node --no-node-snapshot bench/ecosystem-compare.ts /tmp/base [PAIRS]
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { setTimeout as sleep } from "node:timers/promises";
import { writeEcosystem } from "../main/extensions/testing/ecosystem.ts";
import { TRUST_AGE_MS } from "../main/config/markdown-index.ts";
import type { StartPhases } from "./ecosystem-start.ts";

const run = promisify(execFile);
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function start(checkout: string, home: string, work: string): Promise<StartPhases> {
  const script = path.join(checkout, "bench", "ecosystem-start.ts");
  const { stdout } = await run(process.execPath, ["--no-node-snapshot", script, home, work], {
    maxBuffer: 1 << 20,
    env: { ...process.env, ISLET_BENCH_TURNS: process.env.ISLET_BENCH_TURNS ?? "15" },
  });
  return JSON.parse(stdout.trim().split("\n").pop()!) as StartPhases;
}

const [other, pairsArg] = process.argv.slice(2);
if (!other) {
  console.error("usage: ecosystem-compare.ts OTHER_CHECKOUT [PAIRS]");
  process.exit(2);
}
const pairs = Number(pairsArg ?? 10);
const root = mkdtempSync(path.join(tmpdir(), "islet-ecosystem-compare-"));
try {
  const work = path.join(root, "work");
  mkdirSync(work);
  writeEcosystem(path.join(root, "this"), { plugins: 300, seed: 1 });
  cpSync(path.join(root, "this"), path.join(root, "other"), { recursive: true });
  const sides = {
    this: { checkout: path.resolve(import.meta.dirname, ".."), home: path.join(root, "this") },
    other: { checkout: path.resolve(other), home: path.join(root, "other") },
  };
  const runs: Record<keyof typeof sides, StartPhases[]> = { this: [], other: [] };
  // The markdown index trusts only files older than the filesystem's clock granularity.
  await sleep(TRUST_AGE_MS);
  // Twice each first: the caches a start writes, then a warm disk.
  for (let i = 0; i < pairs + 2; i++)
    for (const side of ["other", "this"] as const) {
      const s = sides[side];
      const phases = await start(s.checkout, s.home, work);
      if (i >= 2) runs[side].push(phases);
    }
  const figures = Object.fromEntries(
    (["other", "this"] as const).map((side) => [
      side,
      {
        startMs: Math.round(median(runs[side].map((p) => p.firstRequest - p.imported))),
        cpuMs: Math.round(median(runs[side].map((p) => p.startCpuMs))),
        rssMb: Math.round(median(runs[side].map((p) => p.rssMb))),
        turnMs: Math.round(median(runs[side].map((p) => p.turnMs)) * 100) / 100,
        turnCpuMs: Math.round(median(runs[side].map((p) => p.turnCpuMs)) * 100) / 100,
      },
    ]),
  );
  console.log(JSON.stringify({ pairs, ...figures }, null, 2));
} finally {
  rmSync(root, { recursive: true, force: true });
}
