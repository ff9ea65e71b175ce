/**
 * Plugin load benchmark (goals: warm load < 5 ms; cold bundle < 30 ms for a small plugin).
 * Also reported: starting esbuild's service (once per process) and the first bundle after it.
 * Figures, medians for one small TypeScript plugin (entry + local module + a pure-JS package):
 *   cold: bundlePlugin with an empty cache (esbuild runs, inputs hashed, cache written);
 *         baseline: esbuild.build alone with the same options (the floor of any cold load);
 *   warm: bundlePlugin on a cache hit (no esbuild);
 *         baseline: readFile of the entry + sha256 (the unavoidable floor of a warm load).
 * Run alone: node --no-node-snapshot bench/loader-bench.ts
 */
import * as esbuild from "esbuild";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  BUNDLE_SETTINGS,
  bundlePlugin,
  warmUpBundler,
} from "../main/code-plugins/loader/bundle.ts";
import type { BenchResult } from "./providers-bench.ts";

const COLD_RUNS = 15;
const WARM_RUNS = 101;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function writePlugin(root: string): { entry: string; dir: string } {
  const dir = path.join(root, "turn-tracker");
  const files: Record<string, string> = {
    "plugin.yaml": 'description: "bench plugin"\nsdk: "0.1.0"\n',
    "package.json": '{ "name": "turn-tracker", "dependencies": { "tiny-format": "1.0.0" } }\n',
    "index.ts": [
      'import type { BeforeChatContext, Result } from "@islet/sdk";',
      'import { pct } from "tiny-format";',
      'import { every } from "./lib/every.ts";',
      "let calls = 0;",
      "export function beforeChat(ctx: BeforeChatContext): Result | undefined {",
      "  calls++;",
      "  if (!every(3, ctx.stats.turns)) return undefined;",
      "  return { message: `turn ${ctx.stats.turns} (${pct(ctx.tokens.percent)}) #${calls}`, eject: true };",
      "}",
      "",
    ].join("\n"),
    "lib/every.ts":
      "export const every = (n: number, x: number): boolean => x > 0 && x % n === 0;\n",
    "node_modules/tiny-format/package.json": '{ "name": "tiny-format", "main": "index.js" }\n',
    "node_modules/tiny-format/index.js": "exports.pct = (p) => Math.round(p) + '%';\n",
  };
  // Dated a minute back: the loader does not cache a bundle whose inputs were just modified.
  const past = new Date(Date.now() - 60_000);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
    utimesSync(path.join(dir, rel), past, past);
  }
  return { entry: path.join(dir, "index.ts"), dir };
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

export async function benchPluginLoad(): Promise<BenchResult[]> {
  const root = mkdtempSync(path.join(tmpdir(), "islet-loader-bench-"));
  try {
    const { entry, dir } = writePlugin(root);
    // The first call in a process also starts esbuild's service: reported, not mixed into cold.
    const startMs = await time(() => warmUpBundler());
    const firstMs = await time(() => bundlePlugin({ entry, pluginDir: dir }));

    const raw: number[] = [];
    const cold: number[] = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      raw.push(
        await time(() =>
          esbuild.build({
            ...BUNDLE_SETTINGS,
            entryPoints: [entry],
            absWorkingDir: dir,
            tsconfigRaw: "{}",
          }),
        ),
      );
      const cacheDir = path.join(root, `cache-cold-${i}`);
      cold.push(await time(() => bundlePlugin({ entry, pluginDir: dir, cacheDir })));
    }

    const cacheDir = path.join(root, "cache-warm");
    const primed = await bundlePlugin({ entry, pluginDir: dir, cacheDir });
    if (!primed.ok) throw new Error(primed.message);
    const warm: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < WARM_RUNS; i++) {
      warm.push(
        await time(async () => {
          const r = await bundlePlugin({ entry, pluginDir: dir, cacheDir });
          if (!r.ok || !r.cached) throw new Error("expected a cache hit");
        }),
      );
      floor.push(
        await time(async () =>
          createHash("sha256")
            .update(await readFile(entry))
            .digest("hex"),
        ),
      );
    }

    const coldMs = median(cold);
    const rawMs = median(raw);
    const warmMs = median(warm);
    const floorMs = median(floor);
    const round = (n: number) => Math.round(n * 1000) / 1000;
    return [
      {
        name: "esbuild service start (warmUpBundler, once per process)",
        value: round(startMs),
        unit: "ms",
      },
      {
        name: "plugin bundle, first after warm-up (cold JIT, empty cache)",
        value: round(firstMs),
        unit: "ms",
      },
      {
        name: "plugin bundle, cold (esbuild + input hashing + cache write)",
        value: round(coldMs),
        unit: "ms (median)",
        baseline: {
          name: "esbuild.build alone, same options",
          value: round(rawMs),
          unit: "ms (median)",
        },
        ratio: round(coldMs / rawMs),
      },
      {
        name: "plugin bundle, warm (cache hit, no esbuild)",
        value: round(warmMs),
        unit: "ms (median)",
        baseline: { name: "readFile(entry) + sha256", value: round(floorMs), unit: "ms (median)" },
        ratio: round(warmMs / floorMs),
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  for (const r of await benchPluginLoad()) {
    const base = r.baseline
      ? `   baseline ${r.baseline.name}: ${r.baseline.value} ${r.baseline.unit} (×${r.ratio})`
      : "";
    console.log(`${r.name}: ${r.value} ${r.unit}${base}`);
  }
  await esbuild.stop();
}
