/**
 * `--islet-smoke=<json>`: a headless run of the real app for the Electron smoke test
 * (e2e/electron-smoke.test.ts). It starts the engine as the app does (the sandbox probe in a
 * utility process, then the plugins on the chosen backend behind the bridge), runs one turn
 * against the given provider and prints what happened as one JSON line, then quits.
 */
import { app } from "electron";
import type { PluginList } from "../bridge/contract.ts";
import { startEngineHost } from "./engine-host.ts";

export interface SmokeRequest {
  home: string;
  workdir: string;
  baseUrl: string;
  model: string;
  prompt: string;
}

export async function runSmoke(request: SmokeRequest): Promise<void> {
  // The app's own start-up path: the probe, then the plugins behind the bridge.
  const host = await startEngineHost({
    home: request.home,
    workdir: request.workdir,
    flags: { provider: "openai-compatible", baseUrl: request.baseUrl, model: request.model },
  });
  const ui = host.service.connect({ deliver: () => {} });
  const list = (await ui.call("plugins/list", undefined)) as PluginList;
  const notices: string[] = [];
  const conversation = await host.engine.open({
    emit: (e) => {
      if (e.type === "notice") notices.push(`${e.source}: ${e.text}`);
    },
  });
  const result = await conversation.submit(request.prompt);
  const outcome = result.kind === "turn" ? result.outcome : result.outcome;
  process.stdout.write(
    `${JSON.stringify({
      backend: list.backend?.name ?? "none",
      reason: list.backend?.reason ?? "plugins off",
      plugins: list.plugins.map((p) => `${p.name}:${p.status}`),
      electron: process.versions.electron,
      status: outcome?.status ?? "command",
      text: outcome?.text ?? "",
      notices,
    })}\n`,
  );
  await conversation.close();
  ui.close();
  await host.close();
  app.exit(0);
}
