/**
 * `trust/*`: the Settings "Workspace" section. The folder is the engine's own workspace (never a
 * request's), the decision goes through Engine.setTrust (TrustStore, the one writer of the trust
 * file), and the change applies live.
 */
import type { Engine } from "../../engine/engine.ts";
import { projectWidening } from "../../trust/held-back.ts";
import { TrustStore } from "../../trust/store.ts";
import type { WorkspaceTrustView } from "../schemas/trust.ts";
import { EVERYONE, type BridgeService, type CallHandlers } from "../service.ts";

export function trustHandlers(
  engine: Engine,
  service: Pick<BridgeService, "emit">,
): Pick<CallHandlers, "trust/get" | "trust/set"> {
  return {
    "trust/get": async () => view(engine),
    "trust/set": async ({ trusted }) => {
      await engine.setTrust(trusted);
      service.emit(EVERYONE, "settings/changed", { section: "workspace" });
      // Commands, agents and MCP servers came or went: the slash menu and plugin browser re-read.
      // As the trust-file watcher reports it (a file changed; no plugin was reloaded).
      service.emit(EVERYONE, "plugins/changed", { cause: "file-change", reports: [] });
      return view(engine);
    },
  };
}

async function view(engine: Engine): Promise<WorkspaceTrustView> {
  const { homes, trust } = engine;
  // Read now: the folder's .islet/ may ask for more than when the engine started.
  const asks = await projectWidening(homes);
  return {
    folder: homes.workdir,
    trusted: trust.trusted,
    why: trust.trusted ? trust.why : await untrustedWhy(engine, asks),
    asks,
    changeable: homes.project !== homes.global,
  };
}

/** Why an untrusted folder is: from its record and what it asks for now (not at start-up). */
async function untrustedWhy(engine: Engine, asks: string[]): Promise<string> {
  const record = await new TrustStore(engine.homes.global, () => {}).lookup(engine.homes.workdir);
  if (record?.decision === "untrusted")
    return `you chose not to trust it on ${record.at.slice(0, 10)}`;
  return asks.length > 0 ? "not trusted yet" : "not trusted (its .islet/ asks for nothing more)";
}
