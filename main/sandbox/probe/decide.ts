/**
 * Which sandbox backend the desktop app may use. isolated-vm only after a clean probe in a
 * disposable process (see isolated-vm-probe.ts); a crash, a failure or a hang selects QuickJS and
 * records why. The verdict is cached per Electron version and app version, since only those change
 * what the probe would find.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { isSandboxBackendName } from "../../core/sandbox-backends.ts";
import type { SandboxBackendName } from "../types.ts";

export interface ProbeProcess {
  /** Resolves with the probe's report, or rejects/resolves with how the process ended. */
  result: Promise<ProbeOutcome>;
  kill(): void;
}

export type ProbeOutcome =
  | { kind: "report"; report: { ok: boolean; reason?: string } }
  | { kind: "exit"; code: number | null; signal: string | null };

export interface BackendVerdict {
  backend: SandboxBackendName;
  /** One line for the plugin browser: why this backend runs. */
  reason: string;
  /** From the cache rather than a fresh probe. */
  cached: boolean;
  key: string;
  at: string;
}

export interface DecideOptions {
  /** e.g. `electron-45.4.1/app-0.1.0`: a new Electron or app version probes again. */
  key: string;
  cacheFile: string;
  spawn(): ProbeProcess;
  timeoutMs?: number;
}

async function readCache(file: string, key: string): Promise<BackendVerdict | undefined> {
  try {
    const v = JSON.parse(await readFile(file, "utf8")) as BackendVerdict;
    return v.key === key && isSandboxBackendName(v.backend) ? v : undefined;
  } catch {
    return undefined; // missing or unreadable: probe again
  }
}

function verdictFrom(outcome: ProbeOutcome | "timeout"): {
  backend: SandboxBackendName;
  reason: string;
} {
  if (outcome === "timeout")
    return { backend: "quickjs", reason: "the isolated-vm probe hung; using QuickJS" };
  if (outcome.kind === "report") {
    return outcome.report.ok
      ? {
          backend: "isolated-vm",
          reason: "isolated-vm passed the probe (typed arrays, ExternalCopy, 200 isolates)",
        }
      : {
          backend: "quickjs",
          reason: `the isolated-vm probe failed (${outcome.report.reason ?? "no reason given"}); using QuickJS`,
        };
  }
  const how = outcome.signal ? `signal ${outcome.signal}` : `exit code ${outcome.code}`;
  return {
    backend: "quickjs",
    reason: `the isolated-vm probe crashed (${how}), likely V8's memory cage; using QuickJS`,
  };
}

export async function decideBackend(opts: DecideOptions): Promise<BackendVerdict> {
  const cached = await readCache(opts.cacheFile, opts.key);
  if (cached) return { ...cached, cached: true };
  const proc = opts.spawn();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), opts.timeoutMs ?? 20_000);
  });
  const outcome = await Promise.race([proc.result, timeout]).catch(
    (err: unknown): ProbeOutcome => ({
      kind: "report",
      report: { ok: false, reason: String(err) },
    }),
  );
  clearTimeout(timer);
  proc.kill();
  const verdict: BackendVerdict = {
    ...verdictFrom(outcome),
    cached: false,
    key: opts.key,
    at: new Date().toISOString(),
  };
  await mkdir(path.dirname(opts.cacheFile), { recursive: true });
  const tmp = `${opts.cacheFile}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(verdict, null, 2)}\n`);
  await rename(tmp, opts.cacheFile);
  return verdict;
}
