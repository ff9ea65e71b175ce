/**
 * Vendoring (seed 000 "Auto-vendoring on install and update", for npm): each plugin folder whose
 * package.json has dependencies gets them installed into its own node_modules, without running
 * any package's scripts and without git dependencies (which npm would build by running code).
 * `npm ci` when a lockfile is there (exact, never rewrites it), otherwise `npm install` without
 * writing one, so vendoring leaves the checkout as git has it. A plugin that ships its own
 * `.npmrc` is not vendored (that file configures npm itself: the git and shell it runs), nor one
 * whose package.json does not parse: one line each says so, and the rest of the pack vendors.
 * An update whose package.json and lockfile did not change copies the installed node_modules.
 */
import { execFile } from "node:child_process";
import { cp, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { PackError } from "./types.ts";
import type { Problem, ProblemSink } from "../host/problem.ts";

const LOCKFILES = ["package-lock.json", "npm-shrinkwrap.json"];
const NPM_FLAGS = [
  "--omit=dev",
  "--ignore-scripts",
  "--allow-git=none",
  "--no-audit",
  "--no-fund",
  "--loglevel=error",
];

async function read(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch {
    return undefined;
  }
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Whether `dir` has a package.json with dependencies to install. */
export async function needsVendoring(dir: string, label: string): Promise<boolean> {
  const text = await read(path.join(dir, "package.json"));
  if (text === undefined) return false;
  let pkg: unknown;
  try {
    pkg = JSON.parse(text);
  } catch (err) {
    throw new PackError(
      `${label}/package.json: not valid JSON (${(err as Error).message.split("\n")[0]})`,
    );
  }
  const deps = (pkg as { dependencies?: unknown; optionalDependencies?: unknown } | null) ?? {};
  const count = (v: unknown) => (v && typeof v === "object" ? Object.keys(v).length : 0);
  return count(deps.dependencies) + count(deps.optionalDependencies) > 0;
}

function runNpm(
  dir: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<void> {
  const win = process.platform === "win32";
  return new Promise((resolve, reject) => {
    execFile(
      win ? "npm.cmd" : "npm",
      args,
      { cwd: dir, env, signal, shell: win, timeout: 10 * 60_000, maxBuffer: 16 * 1024 * 1024 },
      (err, _stdout, stderr) => {
        if (!err) return resolve();
        const code = (err as NodeJS.ErrnoException).code;
        if (code === "ENOENT") return reject(new Error("npm was not found on PATH"));
        if (code === "ABORT_ERR") return reject(new Error("cancelled"));
        const line =
          stderr
            .split(/\r?\n/)
            .map((l) => l.replace(/^npm (error|ERR!)\s*/i, "").trim())
            .find((l) => l && !/^code\b/i.test(l)) ?? err.message;
        reject(new Error(line));
      },
    );
  });
}

/** The same package.json and lockfile in both folders, and node_modules in the old one. */
async function sameDependencies(oldDir: string, newDir: string): Promise<boolean> {
  for (const f of ["package.json", ...LOCKFILES])
    if ((await read(path.join(oldDir, f))) !== (await read(path.join(newDir, f)))) return false;
  try {
    return (await stat(path.join(oldDir, "node_modules"))).isDirectory();
  } catch {
    return false;
  }
}

export interface VendorTarget {
  dir: string;
  /** For messages, e.g. tools/greet. */
  label: string;
  /** The same folder in the installed version (update), whose node_modules may be reused. */
  installedDir?: string;
}

/**
 * Installs the dependencies of every target that has some, two at a time. A target npm must not
 * be run for is skipped with one line to `warn`; the others still vendor.
 */
export async function vendorAll(
  targets: VendorTarget[],
  opts: {
    env: NodeJS.ProcessEnv;
    signal?: AbortSignal;
    progress?(label: string): void;
    warn: ProblemSink;
  },
): Promise<number> {
  // Read all at once; skipped ones are reported in the targets' order.
  const needs = await Promise.allSettled(targets.map((t) => needsVendoring(t.dir, t.label)));
  const todo: VendorTarget[] = [];
  const pinned: VendorTarget[] = [];
  for (const [i, need] of needs.entries()) {
    const t = targets[i];
    if (need.status === "rejected") {
      opts.warn(notVendored(t, path.join(t.dir, "package.json"), (need.reason as Error).message));
      continue;
    }
    if (!need.value) continue;
    if (await isFile(path.join(t.dir, ".npmrc"))) pinned.push(t);
    else todo.push(t);
  }
  const why = "ships an .npmrc, which would configure npm while vendoring";
  if (pinned.length === 1) opts.warn(notVendored(pinned[0], ".npmrc", `it ${why}`));
  // A marketplace may have several (claude-plugins-official: four): one line, not one each.
  else if (pinned.length > 1) {
    const pack = pinned[0].label.split("/")[0];
    opts.warn({
      source: "packs",
      file: pack,
      title: `${pinned.length} plugins not vendored: each ${why} (${pinned.map((t) => t.label.slice(pack.length + 1) || t.label).join(", ")})`,
      suggestion: "the rest of the pack is; read each, then run npm install in its folder yourself",
    });
  }
  const one = async (t: VendorTarget) => {
    opts.progress?.(t.label);
    if (t.installedDir && (await sameDependencies(t.installedDir, t.dir))) {
      await cp(path.join(t.installedDir, "node_modules"), path.join(t.dir, "node_modules"), {
        recursive: true,
        verbatimSymlinks: true,
      });
      return;
    }
    const lock = (await Promise.all(LOCKFILES.map((f) => isFile(path.join(t.dir, f))))).some(
      Boolean,
    );
    const args = lock
      ? ["ci", ...NPM_FLAGS]
      : ["install", "--no-package-lock", "--no-save", ...NPM_FLAGS];
    try {
      await runNpm(t.dir, args, opts.env, opts.signal);
    } catch (err) {
      throw new PackError(
        `vendoring ${t.label} failed: npm ${args[0]}: ${(err as Error).message} (fix its package.json, or pass --no-vendor)`,
      );
    }
  };
  const queue = [...todo];
  const worker = async () => {
    for (let t = queue.shift(); t; t = queue.shift()) await one(t);
  };
  await Promise.all([worker(), worker()]);
  return todo.length;
}

/** One line: this plugin's npm dependencies were not installed, and why. */
function notVendored(t: VendorTarget, file: string, why: string): Problem {
  return {
    source: "packs",
    file: `${t.label}/${path.basename(file)}`,
    title: `not vendored: ${why.replace(`${t.label}/package.json: `, "")}`,
    suggestion: "the rest of the pack is; read it, then run npm install in its folder yourself",
  };
}
