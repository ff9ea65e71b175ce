/** Runs a probe script in a child Node process (tests, and `islet` diagnostics). */
import { spawn } from "node:child_process";
import type { ProbeOutcome, ProbeProcess } from "./decide.ts";

export function nodeProbe(script: string, args: string[] = []): ProbeProcess {
  const child = spawn(process.execPath, ["--no-node-snapshot", script, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  const result = new Promise<ProbeOutcome>((resolve) => {
    child.on("close", (code, signal) => {
      const line = out.trim().split("\n").pop() ?? "";
      try {
        const report = JSON.parse(line) as { ok: boolean; reason?: string };
        if (typeof report.ok === "boolean") return resolve({ kind: "report", report });
      } catch {
        // no report: the process died before it could say anything
      }
      resolve({ kind: "exit", code, signal });
    });
  });
  return { result, kill: () => void child.kill("SIGKILL") };
}
