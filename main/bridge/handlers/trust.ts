/**
 * `trust/*`: the Settings "Workspace" section. The folder is the engine's own workspace (never a
 * request's), the decision goes through Engine.setTrust (TrustStore, the one writer of the trust
 * file), and the change applies live.
 */
import type { Homes } from "../../config/homes.ts";
import { projectWidening } from "../../trust/held-back.ts";
import { TrustStore } from "../../trust/store.ts";
import type { WorkspaceTrust } from "../../trust/workspace-trust.ts";
import type { WorkspaceTrustView } from "../schemas/trust.ts";
import { EVERYONE, type BridgeService, type CallHandlers } from "../service.ts";

/** What the Workspace section asks of the engine: its folders and its trust, read and set. */
export interface TrustPort {
  readonly homes: Homes;
  /** Whether the workspace's `.islet/` may widen anything, and why (as of now). */
  trust(): WorkspaceTrust;
  /** Records the decision on the workspace folder and applies it now. */
  setTrust(trusted: boolean): Promise<WorkspaceTrust>;
}

export function trustHandlers(
  port: TrustPort,
  service: Pick<BridgeService, "emit">,
): Pick<CallHandlers, "trust/get" | "trust/set"> {
  return {
    "trust/get": async () => view(port),
    "trust/set": async ({ trusted }) => {
      await port.setTrust(trusted);
      service.emit(EVERYONE, "settings/changed", { section: "workspace" });
      // Commands, agents and MCP servers came or went: the slash menu and plugin browser re-read.
      // As the trust-file watcher reports it (a file changed; no plugin was reloaded).
      service.emit(EVERYONE, "plugins/changed", { cause: "file-change", reports: [] });
      return view(port);
    },
  };
}

async function view(port: TrustPort): Promise<WorkspaceTrustView> {
  const { homes } = port;
  const trust = port.trust();
  // Read now: the folder's .islet/ may ask for more than when the engine started. Held back for
  // changes since it was trusted: those are what trusting it again would enable.
  const asks = trust.changes ?? (await projectWidening(homes));
  return {
    folder: homes.workdir,
    trusted: trust.trusted,
    why: trust.trusted ? trust.why : await untrustedWhy(homes, asks),
    asks,
    changeable: homes.project !== homes.global,
  };
}

/** Why an untrusted folder is: from its record and what it asks for now (not at start-up). */
async function untrustedWhy(homes: Homes, asks: string[]): Promise<string> {
  const record = await new TrustStore(homes.global, () => {}).lookup(homes.workdir);
  if (record?.decision === "untrusted")
    return `you chose not to trust it on ${record.at.slice(0, 10)}`;
  if (record?.decision === "trusted")
    return "what runs from it changed since you trusted it: trust it again to confirm the changes";
  return asks.length > 0 ? "not trusted yet" : "not trusted (its .islet/ asks for nothing more)";
}
