/**
 * The engine inside the desktop app: the sandbox probe runs first (SPEC §6: isolated-vm only
 * where a disposable utility process proved it safe), then the engine loads the plugins on that
 * backend behind the bridge.
 */
import { homedir } from "node:os";
import { dialog } from "electron";
import { openBridgeHost, type BridgeHost } from "../bridge/host.ts";
import { resolveHomes } from "../config/homes.ts";
import type { HostOptions } from "../engine/bootstrap.ts";
import { formatProblem, type Problem } from "../host/problem.ts";
import type { QuestionPort } from "../host/questions.ts";
import { setRuntimeSpawner } from "../providers/local/runtime-spawn.ts";
import { utilityRuntimeSpawner } from "./local-runtime-spawn.ts";
import { chooseSandboxBackend } from "./sandbox-probe.ts";
import { desktopSecretStore } from "./secret-store.ts";
import { desktopSettingsStore } from "./settings-store.ts";

/** The workspace: ISLET_WORKDIR, else where the app was started (a launcher's "/" means home). */
function workdir(): string {
  const fromEnv = process.env["ISLET_WORKDIR"];
  if (fromEnv) return fromEnv;
  return process.cwd() === "/" ? homedir() : process.cwd();
}

/** `overrides`: the smoke run points the engine at its own home, workdir and provider. */
export async function startEngineHost(
  overrides: Pick<HostOptions, "home" | "workdir" | "flags"> = {},
  questions?: QuestionPort,
): Promise<BridgeHost> {
  const verdict = await chooseSandboxBackend();
  setRuntimeSpawner(utilityRuntimeSpawner);
  const globalHome = resolveHomes({ home: overrides.home }).global;
  const warn = (problem: Problem) => console.warn(`[islet] ${formatProblem(problem)}`);
  return openBridgeHost({
    secrets: await desktopSecretStore(),
    settings: desktopSettingsStore(globalHome, warn),
    workdir: workdir(),
    ...overrides,
    plugins: {},
    questions,
    hostBackend: { name: verdict.backend, reason: verdict.reason },
    pickModelFile: async () => {
      const picked = await dialog.showOpenDialog({
        title: "Add a model file",
        properties: ["openFile"],
        filters: [{ name: "GGUF models", extensions: ["gguf"] }],
      });
      return picked.canceled ? null : (picked.filePaths[0] ?? null);
    },
    host: {
      host: "desktop",
      versions: {
        node: process.versions.node,
        electron: process.versions.electron ?? null,
        chrome: process.versions.chrome ?? null,
      },
    },
    warn,
  }).then((host) => {
    // Asked while the app runs: the plugins granted more reload with it.
    void host.engine.askPluginPermissions();
    return host;
  });
}
