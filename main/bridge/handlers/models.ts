/**
 * `models/*`: the model picker. Lists the local servers running now and the configured
 * providers with their models; switches an open conversation's model (its next turn uses it) or
 * the default for new conversations (saved in the global providers.yaml).
 */
import type { AgentConfig } from "../../agents/definition.ts";
import type { Conversation } from "../../engine/conversation.ts";
import type { ModelSource } from "../../engine/model-source.ts";
import { ProblemError } from "../../host/problem.ts";
import { saveDefaultModel } from "../../providers/config-edit.ts";
import { createProvider, type ProviderConfig } from "../../providers/index.ts";
import { localModels } from "../../models/index.ts";
import type { Chats } from "../chats.ts";
import type { ModelServer } from "../schemas/models.ts";
import { EVERYONE, type BridgeService, type CallHandlers, type ClientId } from "../service.ts";

const LABELS: Record<string, string> = {
  ollama: "Ollama",
  lmstudio: "LM Studio",
  llamacpp: "llama.cpp",
};
const LIST_TIMEOUT_MS = 5000;

/** What the model picker asks of the engine. */
export interface ModelsPort {
  /** Where models come from; null for hosts that do not let the app choose models. */
  readonly models: ModelSource | null;
  /** The agent named (new chats start with "default"). */
  agent(name: string): AgentConfig;
  /** Records in a conversation's session file the model picked for it (written at once). */
  saveSessionModel(id: string, provider: string, model: string): Promise<void>;
  /** A reopened session's last model, while its provider still answers (else why not). */
  restoreSessionModel(conversation: Conversation): Promise<string | null>;
}

export function modelSource(port: Pick<ModelsPort, "models">, source: string): ModelSource {
  if (!port.models)
    throw new ProblemError({ source, title: "this host does not let the app choose models" });
  return port.models;
}

/** A configured provider's models, or why they could not be listed (one line). */
export async function configuredModels(
  config: ProviderConfig,
  env: Record<string, string | undefined>,
  modelsDir: string,
): Promise<{ baseUrl: string; models: string[]; error: string | null }> {
  try {
    const provider = createProvider(config, env, modelsDir);
    const models = (await provider.listModels(AbortSignal.timeout(LIST_TIMEOUT_MS))).map(
      (m) => m.name,
    );
    return { baseUrl: provider.baseUrl, models, error: null };
  } catch (err) {
    return { baseUrl: config.baseUrl ?? "", models: [], error: (err as Error).message };
  }
}

async function listServers(source: ModelSource): Promise<ModelServer[]> {
  const [detected, configs, env] = await Promise.all([
    source.detect(),
    source.configs(),
    source.env(),
  ]);
  const servers: ModelServer[] = detected.map((s) => ({
    provider: s.id,
    label: LABELS[s.id] ?? s.id,
    kind: s.kind,
    baseUrl: s.baseUrl,
    source: "detected",
    models: s.models.map((m) => m.name),
    error: null,
  }));
  const configured = await Promise.all(
    Object.values(configs.providers).map(async (c): Promise<ModelServer> => {
      const listed = await configuredModels(c, env, source.modelsDir);
      // A provider whose server cannot list still offers the model it names.
      const models = listed.models.length > 0 || !c.model ? listed.models : [c.model];
      return {
        provider: c.name,
        label: c.name,
        kind: c.type,
        source: "configured",
        ...listed,
        models,
      };
    }),
  );
  // The embedded runtime's downloaded models (usable ones only; the Models screen shows the rest).
  const local = (await localModels(source.homes)).filter((m) => m.info).map((m) => m.name);
  const embedded: ModelServer[] = local.length
    ? [
        {
          provider: "local",
          label: "Built-in",
          kind: "local",
          baseUrl: source.modelsDir,
          source: "embedded",
          models: local,
          error: null,
        },
      ]
    : [];
  return [...servers, ...configured, ...embedded];
}

export function modelHandlers(
  port: ModelsPort,
  chats: Chats,
  service: Pick<BridgeService, "emit">,
): Pick<CallHandlers, "models/list" | "models/select"> {
  const agentOf = (client: ClientId, conversationId: string | undefined, src: string) =>
    conversationId
      ? chats.member(client, conversationId, src).conversation.session.state.agent
      : port.agent("default");
  return {
    "models/list": async ({ conversationId }, { client }) => {
      const source = modelSource(port, "models/list");
      // The user may just have started a server or edited providers.yaml.
      source.invalidate();
      const servers = await listServers(source);
      const state = conversationId
        ? chats.member(client, conversationId, "models/list").conversation.session.state
        : null;
      if (state?.resolved)
        return {
          servers,
          current: { provider: state.resolved.provider.name, model: state.resolved.model },
          currentError: null,
        };
      try {
        const resolved = await source.resolve(agentOf(client, conversationId, "models/list"));
        return {
          servers,
          current: { provider: resolved.provider.name, model: resolved.model },
          currentError: null,
        };
      } catch (err) {
        return { servers, current: null, currentError: (err as Error).message };
      }
    },
    "models/select": async ({ conversationId, provider, model }, { client }) => {
      const source = modelSource(port, "models/select");
      if (conversationId) {
        const { conversation, busy } = chats.member(client, conversationId, "models/select");
        if (busy)
          throw new ProblemError({
            source: "models/select",
            title: "a turn is running in this conversation",
            suggestion: "wait for it to end (or stop it), then pick the model",
          });
        const agent: AgentConfig = conversation.session.state.agent;
        const resolved = await source.resolveExact(agent, provider, model);
        conversation.session.state.resolved = resolved;
        await port.saveSessionModel(conversation.id, provider, model);
        // The sessions list shows each session's model.
        service.emit(EVERYONE, "sessions/changed", { cause: "updated", id: conversation.id });
        return { current: { provider: resolved.provider.name, model }, scope: "conversation" };
      }
      // Checked before it is saved: a default that cannot be reached would break every new chat.
      await source.resolveExact(port.agent("default"), provider, model);
      await saveDefaultModel(source.providersFile, provider, model);
      source.chooseDefault(provider, model);
      service.emit(EVERYONE, "settings/changed", { section: "models" });
      return { current: { provider, model }, scope: "default" };
    },
  };
}

/**
 * A saved session opened in the app continues with the model it last used while that provider
 * still answers; else the default (engine/session-model.ts).
 */
export function withSessionModel<H extends Pick<CallHandlers, "chat/open">>(
  handlers: H,
  port: Pick<ModelsPort, "restoreSessionModel">,
  chats: Chats,
): H {
  const open = handlers["chat/open"];
  const wrapped: CallHandlers["chat/open"] = async (request, ctx) => {
    const opened = await open(request, ctx);
    if (!opened.resumed) return opened;
    const { conversation, busy } = chats.member(ctx.client, opened.conversationId, "chat/open");
    if (!busy) await port.restoreSessionModel(conversation);
    return opened;
  };
  return { ...handlers, "chat/open": wrapped };
}
