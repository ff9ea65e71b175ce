/**
 * `--islet-smoke=<json>`: a headless run of the real app for the Electron smoke test
 * (e2e/electron-smoke.test.ts). It does what the app does before plugins load (the sandbox probe
 * in a utility process), loads the plugins on the chosen backend, runs one turn against the
 * given provider and prints what happened as one JSON line, then quits.
 */
import { app } from "electron";
import { createEngine } from "../engine/bootstrap.ts";
import { chooseSandboxBackend } from "./sandbox-probe.ts";

export interface SmokeRequest {
  home: string;
  workdir: string;
  baseUrl: string;
  model: string;
  prompt: string;
}

export async function runSmoke(request: SmokeRequest): Promise<void> {
  const verdict = await chooseSandboxBackend();
  const warnings: string[] = [];
  const engine = await createEngine({
    home: request.home,
    workdir: request.workdir,
    flags: { provider: "openai-compatible", baseUrl: request.baseUrl, model: request.model },
    plugins: {},
    hostBackend: { name: verdict.backend, reason: verdict.reason },
    warn: (line) => warnings.push(line),
  });
  const notices: string[] = [];
  const conversation = await engine.open({
    emit: (e) => {
      if (e.type === "notice") notices.push(`${e.source}: ${e.text}`);
    },
  });
  const result = await conversation.submit(request.prompt);
  const outcome = result.kind === "turn" ? result.outcome : result.outcome;
  process.stdout.write(
    `${JSON.stringify({
      backend: verdict.backend,
      reason: verdict.reason,
      electron: process.versions.electron,
      status: outcome?.status ?? "command",
      text: outcome?.text ?? "",
      notices,
      warnings,
    })}\n`,
  );
  await conversation.close();
  await engine.close();
  app.exit(0);
}
