/**
 * The isolated-vm probe in an Electron utility process: the same V8 build (and memory cage) as
 * the app, in a process that may crash. decideBackend (Electron-free) turns what happens into the
 * backend choice and caches it per Electron and app version.
 */
import { app, utilityProcess } from "electron";
import path from "node:path";
import {
  decideBackend,
  type BackendVerdict,
  type ProbeOutcome,
  type ProbeProcess,
} from "../sandbox/probe/decide.ts";

function utilityProbe(script: string): ProbeProcess {
  const child = utilityProcess.fork(script, [], {
    serviceName: "Islet sandbox probe",
    stdio: "ignore",
  });
  const result = new Promise<ProbeOutcome>((resolve) => {
    child.once("message", (report: { ok: boolean; reason?: string }) =>
      resolve({ kind: "report", report }),
    );
    child.once("exit", (code: number) => resolve({ kind: "exit", code, signal: null }));
  });
  return { result, kill: () => void child.kill() };
}

/** Run before any plugin loads; the verdict's reason is what the plugin browser shows. */
export function chooseSandboxBackend(): Promise<BackendVerdict> {
  return decideBackend({
    key: `electron-${process.versions.electron}/app-${app.getVersion()}`,
    cacheFile: path.join(app.getPath("userData"), "sandbox-probe.json"),
    // Built next to the main bundle (electron.vite.config.ts: the "isolated-vm-probe" input);
    // located from the app root because this module may end up in a chunk of its own.
    spawn: () => utilityProbe(path.join(app.getAppPath(), "out", "main", "isolated-vm-probe.js")),
  });
}
