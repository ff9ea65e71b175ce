import assert from "node:assert/strict";
import { test } from "node:test";
import { handler, registryOf } from "../turn/hooks/testing.ts";
import type { HookHandler, HookRegistry, HookTiming } from "../turn/hooks/types.ts";
import { HOOK_SOURCE_ORDER, HookSources } from "./hook-sources.ts";

const sources = (hooks: HookRegistry) => hooks.handlers("beforeChat").map((h) => h.source);
const beforeChat = (source: string) => handler(source, "beforeChat", () => undefined);

/** A source whose handlers change after it was added (a plugin loaded or reloaded). */
function liveRegistry(list: HookHandler[]): HookRegistry {
  return {
    handlers: <T extends HookTiming>(timing: T) =>
      list.filter((h): h is HookHandler<T> => h.timing === timing),
  };
}

test("handlers run by source order, then by when the source was added; a source is read live", () => {
  const hooks = new HookSources();
  assert.deepEqual(sources(hooks), []);
  const plugins = [beforeChat("plugin-a")];
  const shell = hooks.add(registryOf(beforeChat("shell")), HOOK_SOURCE_ORDER.shellHooks);
  hooks.add(liveRegistry(plugins), HOOK_SOURCE_ORDER.codePlugins);
  hooks.add(registryOf(beforeChat("claude")), HOOK_SOURCE_ORDER.claudePlugins);
  hooks.add(registryOf(beforeChat("claude-2")), HOOK_SOURCE_ORDER.claudePlugins);
  assert.deepEqual(sources(hooks), ["plugin-a", "claude", "claude-2", "shell"]);
  plugins.push(beforeChat("plugin-b"));
  assert.deepEqual(sources(hooks), ["plugin-a", "plugin-b", "claude", "claude-2", "shell"]);
  assert.deepEqual(hooks.handlers("afterResponse"), []);
  shell.dispose();
  shell.dispose();
  assert.deepEqual(sources(hooks), ["plugin-a", "plugin-b", "claude", "claude-2"]);
});

test("a single source's list is served as it is, without a copy per call", () => {
  // Like the plugin runtime: one list per timing, kept until the plugins change.
  const cache = new Map<HookTiming, readonly HookHandler[]>();
  const inner = registryOf(beforeChat("p"));
  const cached: HookRegistry = {
    handlers<T extends HookTiming>(timing: T) {
      if (!cache.has(timing)) cache.set(timing, inner.handlers(timing));
      return cache.get(timing) as readonly HookHandler<T>[];
    },
  };
  const hooks = new HookSources();
  hooks.add(cached, HOOK_SOURCE_ORDER.codePlugins);
  assert.equal(hooks.handlers("beforeChat"), cached.handlers("beforeChat"));
});
