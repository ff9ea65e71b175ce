/**
 * Test support for the sessions, models, agents and settings calls: a real bridge host on a
 * temporary home whose providers.yaml points at a loopback fake Ollama, keys in the home's sealed
 * file, no probing of this machine's real local servers.
 */
import { tempDir, type TempDir } from "../../code-plugins/loader/testing.ts";
import { startFakeOllama, type FakeServer } from "../../providers/testing/index.ts";
import type { ScriptedResponse } from "../../providers/testing/script.ts";
import type { DetectedServer } from "../../providers/index.ts";
import { homeSecretStore } from "../../secrets/home-file.ts";
import type { AgentEvent } from "../../core/events.ts";
import type { ChatOpened, ChatOutcome } from "../contract.ts";
import { openBridgeHost, type BridgeHost } from "../host.ts";
import type { RecordingClient } from "../testing.ts";

export const PROVIDERS_YAML = (url: string) =>
  [
    "# my providers — this comment must survive edits from Settings",
    "default: { provider: local, model: small:1b }",
    "providers:",
    "  local:",
    "    type: ollama # the one on this machine",
    `    base_url: ${url}`,
    "",
  ].join("\n");

export interface SettingsHarness {
  dirs: TempDir;
  model: FakeServer;
  host: BridgeHost;
  home: string;
  /** Restarts the host on the same home (a restart of the app or `islet serve`). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startSettingsHarness(
  script: ScriptedResponse[] = [],
  files: Record<string, string> = {},
  opts: {
    detect?: () => Promise<DetectedServer[]>;
    providers?: boolean;
    /** The desktop app's open dialog, faked. */
    pickModelFile?: () => Promise<string | null>;
  } = {},
): Promise<SettingsHarness> {
  const dirs = tempDir("islet-bridge-settings-");
  const model = await startFakeOllama(script, {
    models: [{ name: "small:1b" }, { name: "big:70b" }],
  });
  dirs.write({
    "work/.keep": "",
    ...(opts.providers === false
      ? {}
      : { "home/config/providers.yaml": PROVIDERS_YAML(model.url) }),
    ...files,
  });
  const home = dirs.path("home");
  const open = () =>
    openBridgeHost({
      home,
      workdir: dirs.path("work"),
      env: {},
      detect: opts.detect ?? (async () => []),
      secrets: homeSecretStore(home, () => {}),
      ...(opts.pickModelFile ? { pickModelFile: opts.pickModelFile } : {}),
      host: {
        host: "browser",
        versions: { node: process.versions.node, electron: null, chrome: null },
      },
    });
  const h: SettingsHarness = {
    dirs,
    model,
    home,
    host: await open(),
    async restart() {
      await h.host.close();
      h.host = await open();
    },
    async close() {
      await h.host.close();
      await model.close();
      dirs.remove();
    },
  };
  return h;
}

/** Opens a new chat in `client` and sends one prompt; resolves with the conversation id. */
export async function chatOnce(client: RecordingClient, text: string): Promise<string> {
  const opened = (await client.call("chat/open", {})) as ChatOpened;
  await sendIn(client, opened.conversationId, text);
  return opened.conversationId;
}

export async function sendIn(
  client: RecordingClient,
  conversationId: string,
  text: string,
): Promise<ChatOutcome> {
  const events: AgentEvent[] = [];
  return (await client.stream("chat/send", { conversationId, text }, (e) =>
    events.push(e as AgentEvent),
  )) as ChatOutcome;
}
