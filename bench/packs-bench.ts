/**
 * Plugin packs (goal ≤ 1.5× plain git): installing a 10-plugin pack from a git daemon on
 * 127.0.0.1 (clone, validate, build every plugin, consent, move into place, record grants) against
 * a plain `git clone` of the same repository; and updating it by one commit (fetch into a staging
 * copy, local-edit check, validate, build, changes for the question, swap) against `git pull` in a
 * plain clone. Each run does both, one after the other; medians after one warm-up round (esbuild's
 * service start is once per process and not a pack's cost), the ratio is the median of each
 * run's ratio. The plugins have no npm dependencies:
 * vendoring is npm's time, not Islet's.
 *
 * Run alone: node --no-node-snapshot bench/one.ts packs
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Homes } from "../main/config/homes.ts";
import { packManager } from "../main/packs/index.ts";
import {
  gitRepos,
  gitTestEnv,
  pluginFiles,
  startGitDaemon,
} from "../main/packs/testing/git-servers.ts";
import type { BenchResult } from "./providers-bench.ts";

const run = promisify(execFile);
const RUNS = 9;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (n: number) => Math.round(n * 10) / 10;

function packFiles(version: number): Record<string, string> {
  const files: Record<string, string> = { "README.md": "# A pack of ten plugins\n".repeat(20) };
  for (let i = 1; i <= 10; i++) {
    Object.assign(
      files,
      pluginFiles(`plugin${i}`, {
        version: String(i === 1 ? version : 1),
        yaml: 'sdk: "0.1.0"\npermissions:\n  network: [{ host: api.example.com, reason: "posts notes" }]\n',
      }),
    );
    files[`plugin${i}/lib/util.ts`] =
      `export const twice = (n: number): number => n * 2; // ${"x".repeat(400)}\n`;
    files[`plugin${i}/README.md`] = `# plugin${i}\n${"Some documentation. ".repeat(50)}\n`;
  }
  return files;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

export async function benchPacks(): Promise<BenchResult[]> {
  await using repos = await gitRepos();
  const repo = await repos.create("bench-pack", packFiles(1));
  await using daemon = await startGitDaemon(repos.served);
  const url = daemon.url("bench-pack");
  const root = await mkdtemp(path.join(tmpdir(), "islet-packs-bench-"));
  const env = gitTestEnv({ HOME: root });
  const hooks = { consent: async () => true };
  let version = 1;
  try {
    const install: number[] = [];
    const clone: number[] = [];
    const update: number[] = [];
    const pull: number[] = [];
    for (let i = 0; i <= RUNS; i++) {
      const home = path.join(root, `run${i}`);
      const homes: Homes = {
        global: path.join(home, "global"),
        project: path.join(home, "work", ".islet"),
        workdir: path.join(home, "work"),
      };
      const manager = packManager({ homes, env });
      const plain = path.join(home, "plain");
      const installMs = await time(() =>
        manager.add({ source: url, scope: "global", name: "pack" }, hooks),
      );
      const cloneMs = await time(() => run("git", ["clone", "--quiet", url, plain], { env }));

      await repo.commit(
        `Version ${++version}`,
        pluginFiles("plugin1", { version: String(version) }),
      );
      const updateMs = await time(async () => {
        const out = await manager.update("pack", hooks);
        if (!out.changed) throw new Error("the update found nothing new");
      });
      await manager.settled(); // the old copy's deletion, which may follow the answer
      const pullMs = await time(() =>
        run("git", ["pull", "--quiet", "--ff-only"], { cwd: plain, env }),
      );
      if (i > 0) {
        install.push(installMs);
        clone.push(cloneMs);
        update.push(updateMs);
        pull.push(pullMs);
      }
      await rm(home, { recursive: true, force: true });
    }
    const figures = (
      name: string,
      ours: number[],
      base: number[],
      baseName: string,
    ): BenchResult => ({
      name,
      value: round(median(ours)),
      unit: "ms (median)",
      baseline: { name: baseName, value: round(median(base)), unit: "ms" },
      // Each run's two figures are taken moments apart: the median of their ratios follows a
      // machine whose load drifts better than the ratio of two medians.
      ratio: Math.round(median(ours.map((o, i) => o / base[i])) * 100) / 100,
    });
    return [
      figures(
        "pack install, 10 plugins from git daemon (clone, validate, build, move)",
        install,
        clone,
        "git clone of the same repository",
      ),
      figures(
        "pack update, 10 plugins, one new commit (fetch, validate, build, swap)",
        update,
        pull,
        "git pull in a plain clone",
      ),
    ];
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if (import.meta.main) console.log(await benchPacks());
