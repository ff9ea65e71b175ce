/** Test support: hook handlers from plain functions (what the plugin runtime supplies later). */
import type { Context } from "../../../plugins/sdk/index.ts";
import { newStats } from "../stats.ts";
import type {
  HookContexts,
  HookHandler,
  HookInvocation,
  HookRegistry,
  HookResults,
  HookTiming,
} from "./types.ts";

type Fn<T extends HookTiming> = (
  ctx: HookContexts[T],
) => HookResults[T] | undefined | HookInvocation<T> | Promise<HookResults[T] | undefined>;

export function handler<T extends HookTiming>(
  source: string,
  timing: T,
  fn: Fn<T>,
): HookHandler<T> {
  return {
    source,
    timing,
    async invoke(ctx) {
      const r = await fn(ctx);
      if (r && typeof r === "object" && !Array.isArray(r) && "status" in r)
        return r as HookInvocation<T>;
      return { status: "ok", result: r as HookResults[T] | undefined };
    },
  };
}

/** A registry holding the given handlers (run in the order given). */
export function registryOf(...handlers: HookHandler[]): HookRegistry {
  return {
    handlers<T extends HookTiming>(timing: T) {
      return handlers.filter((h): h is HookHandler<T> => h.timing === timing);
    },
  };
}

/** A hook context with every field at its zero value; tests override what they read. */
export function emptyContext(overrides: Partial<Context> = {}): Context {
  return {
    iteration: 0,
    tokens: { estimate: 0, lastApi: 0, percent: 0, max: 0 },
    agent: "default",
    mode: "",
    modelInfo: { name: "", family: "", parameterCount: 0, contextLength: 0, capabilities: [] },
    stats: newStats(),
    workdir: "/w",
    messageCount: 0,
    auto: false,
    doneActive: false,
    hasToolCalls: false,
    maxSteps: 10,
    response: { empty: false, contentEmpty: false },
    todo: { pending: 0, inProgress: 0, total: 0 },
    patchCounts: {},
    toolHistory: [],
    session: { id: "s", title: "" },
    provider: "p",
    thinkMode: "off",
    features: {
      sandbox: { enabled: false, requested: false },
      readBeforeWrite: true,
      showThinking: true,
      compactionEnabled: true,
    },
    availableTools: [],
    loadedTools: [],
    turns: [],
    systemPrompt: "",
    mcpServers: [],
    vars: {},
    pluginConfig: {},
    ...overrides,
  };
}
