/**
 * The engine as the bridge sees it: each handler namespace's port (declared beside its handler)
 * and the open conversations' port (chats.ts), built from the one Engine; a handler sees its
 * port alone.
 */
import { loadPluginFeatures } from "../code-plugins/loader/features.ts";
import type { Engine } from "../engine/engine.ts";
import { replayTurn } from "../engine/replay/replay.ts";
import { restoreSessionModel } from "../engine/session-model.ts";
import type { ChatsPort } from "./chats.ts";
import { listExtensions } from "./handlers/extension-entries.ts";
import type { EnginePorts } from "./handlers/index.ts";

export function enginePorts(engine: Engine): EnginePorts {
  const { homes, models } = engine;
  // Read at each call: loadPlugins() replaces the runtime.
  const plugins = () => engine.plugins;
  const agent = (name: string) => engine.agent(name);
  const hasAgent = (name: string) => engine.agents.has(name);
  const reloadExtensions = async () => {
    await engine.declarative.reload();
    engine.reloadMarkdown();
  };
  return {
    app: { workdir: homes.workdir, home: homes.global },
    plugins: {
      plugins,
      extensions: () =>
        listExtensions(engine.declarative, engine.homeMarkdown.folders, (name) =>
          engine.mcp.list().find((m) => m.name === name),
        ),
      reloadExtensions,
    },
    agents: { agents: () => engine.agents.values(), hasAgent, agent },
    sessions: engine.store,
    models: {
      models,
      agent,
      saveSessionModel: async (id, provider, model) => {
        engine.store.append(id, { t: "model", provider, model });
        await engine.store.flush(id);
      },
      restoreSessionModel: (conversation) => restoreSessionModel(engine, conversation),
    },
    localModels: { models, agent, homes },
    settings: {
      globalHome: homes.global,
      workdir: homes.workdir,
      models,
      approvals: engine.approvals,
      toolNames: () => engine.tools.names(),
      hasAgent,
      pluginBackend: () => engine.plugins?.backend.name ?? null,
    },
    commands: {
      commands: () => engine.commands.list(),
      failedCommands: () => engine.plugins?.failedCommands() ?? [],
      markdownFolders: () => engine.homeMarkdown.folders,
      heldBackReason: (what) => engine.homeMarkdown.heldBackReason(what),
    },
    outputStyles: engine.outputStyleDeps,
    editor: {
      plugins,
      watchingPlugins: () => engine.watchingPlugins,
      files: engine.pluginFiles,
      pluginFeatures: () => loadPluginFeatures(homes, { trustedProject: engine.trust.trusted }),
      sessions: engine.store,
      workdir: homes.workdir,
      replay: (opts) => replayTurn({ engine, ...opts }),
    },
    mcp: engine.mcp,
    packs: {
      globalHome: homes.global,
      plugins,
      askPluginPermissions: () => engine.askPluginPermissions(),
      reloadExtensions,
    },
    activation: engine.activation,
    trust: { homes, trust: () => engine.trust, setTrust: (trusted) => engine.setTrust(trusted) },
  };
}

export function chatsPort(engine: Engine): ChatsPort {
  return {
    resolveSession: (id) => engine.store.resolve(id),
    open: (request) => engine.open(request),
    history: (sessionId) => engine.history(sessionId),
  };
}
