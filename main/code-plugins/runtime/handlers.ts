/**
 * Hook handlers backed by plugins: the condition is checked before every call, `once` hooks fire
 * at most once per session, the plugin's merged config goes into the context, and whatever comes
 * back is validated before the engine applies it.
 */
import type { z } from "zod";
import type {
  HookContexts,
  HookHandler,
  HookInvocation,
  HookResults,
  HookTiming,
} from "../../turn/hooks/types.ts";
import type { ConditionCheck } from "../conditions/index.ts";
import {
  DEFERRED_SEPARATOR,
  type DeferredFields,
  type LazyTexts,
} from "../../sandbox/lazy-fields.ts";
import { PluginCallError, type LoadedPlugin } from "./loaded-plugin.ts";
import {
  beforeToolResultSchema,
  describeIssue,
  resultSchema,
  transformResultSchema,
} from "./result-schema.ts";

export type { ConditionCheck };

/** Which once-hooks have fired, per session; survives plugin reloads (it lives in the runtime). */
export class OnceTracker {
  private readonly fired = new Set<string>();
  private key(session: string, plugin: string, timing: HookTiming): string {
    return `${session}\u0000${plugin}\u0000${timing}`;
  }
  has(session: string, plugin: string, timing: HookTiming): boolean {
    return this.fired.has(this.key(session, plugin, timing));
  }
  /** Called when a once-hook fires, so the session can remember it across restarts. */
  onMark: ((session: string, plugin: string, timing: HookTiming) => void) | null = null;

  mark(session: string, plugin: string, timing: HookTiming): void {
    this.fired.add(this.key(session, plugin, timing));
    this.onMark?.(session, plugin, timing);
  }

  /** A resumed session's fired hooks (saved as `once:<plugin>:<timing>` state keys). */
  restore(session: string, state: Readonly<Record<string, unknown>>): void {
    for (const [key, value] of Object.entries(state)) {
      const m = /^once:(.+):([A-Za-z]+)$/.exec(key);
      if (m && value === true) this.fired.add(this.key(session, m[1], m[2] as HookTiming));
    }
  }
  /** Any session: for /plugins "(fired)". */
  anyFired(plugin: string, timing: HookTiming): boolean {
    const suffix = `\u0000${plugin}\u0000${timing}`;
    for (const k of this.fired) if (k.endsWith(suffix)) return true;
    return false;
  }
}

/** Large context fields the plugin fetches only if it reads them (sandbox/lazy-fields.ts). */
const LAZY_FIELDS: ReadonlySet<string> = new Set(["turns", "toolHistory", "systemPrompt"]);
/**
 * Any other field whose JSON is longer than this is lazy too (afterResponse's `content`, a tool's
 * output): every plugin would copy it on every call, and most hooks never read it.
 */
export const LAZY_FIELD_CHARS = 1024;

interface Serialised {
  lazy: LazyTexts | undefined;
  /**
   * Every other field (sandbox/lazy-fields.ts): it goes along with the call as text and is parsed
   * in the sandbox only when the plugin looks at it. Parsing all of a context's ~25 fields was
   * the larger part of a hook's entry into a cold isolate, and most hooks read one or two.
   */
  deferred: DeferredFields | undefined;
}

/** Each hook context is serialised once, however many plugins receive it. */
const serialised = new WeakMap<object, Serialised>();
/**
 * The arguments' JSON for each plugin's config, once (the same object from call to call): the
 * context's own fields all come beside it.
 */
const argumentsJson = new WeakMap<object, string>();

function serialise(ctx: Record<string, unknown>): Serialised {
  const lazy = new ContextLazyFields();
  const names: string[] = [];
  let text = "";
  for (const key of Object.keys(ctx)) {
    if (key === "pluginConfig") continue;
    const value = ctx[key];
    if (LAZY_FIELDS.has(key)) {
      lazy.whenRead(key, value);
      continue;
    }
    const json = JSON.stringify(value) as string | undefined;
    // undefined (and functions) have no JSON: left out, as JSON.stringify of the object does.
    if (json === undefined) continue;
    if (json.length > LAZY_FIELD_CHARS) lazy.add(key, json);
    else {
      names.push(key);
      text += DEFERRED_SEPARATOR + json;
    }
  }
  return {
    lazy: lazy.done(),
    deferred: names.length === 0 ? undefined : { names: JSON.stringify(names), text },
  };
}

/**
 * A context's lazy fields. The conversation's turns and the system prompt grow with the session,
 * and most calls never read them: their JSON is written when first asked for.
 */
class ContextLazyFields implements LazyTexts {
  names = "";
  readonly #texts = new Map<string, string | undefined>();
  readonly #values = new Map<string, unknown>();
  readonly #keys: string[] = [];

  whenRead(key: string, value: unknown): void {
    this.#values.set(key, value);
    this.#keys.push(key);
  }

  add(key: string, json: string): void {
    this.#texts.set(key, json);
    this.#keys.push(key);
  }

  /** This, once every field is in; undefined when there is none. */
  done(): LazyTexts | undefined {
    if (this.#keys.length === 0) return undefined;
    this.names = JSON.stringify(this.#keys);
    return this;
  }

  text(name: string): string | undefined {
    if (this.#texts.has(name)) return this.#texts.get(name);
    if (!this.#values.has(name)) return undefined;
    const json = JSON.stringify(this.#values.get(name)) as string | undefined;
    this.#texts.set(name, json);
    this.#values.delete(name);
    return json;
  }
}

/**
 * `[ctx]` as JSON holding this plugin's config in ctx.pluginConfig, with the context's own fields
 * beside it, lazy and deferred.
 */
export function contextPayload(
  ctx: object,
  pluginConfig: Record<string, unknown>,
): { json: string; lazy: LazyTexts | undefined; deferred: DeferredFields | undefined } {
  let s = serialised.get(ctx);
  if (s === undefined) {
    s = serialise(ctx as Record<string, unknown>);
    serialised.set(ctx, s);
  }
  let json = argumentsJson.get(pluginConfig);
  if (json === undefined) {
    json = `[{"pluginConfig":${JSON.stringify(pluginConfig)}}]`;
    argumentsJson.set(pluginConfig, json);
  }
  return { json, lazy: s.lazy, deferred: s.deferred };
}

const SCHEMAS: Record<HookTiming, z.ZodType> = {
  beforeChat: resultSchema,
  afterResponse: resultSchema,
  beforeToolExecution: beforeToolResultSchema,
  afterToolExecution: resultSchema,
  onError: resultSchema,
  beforeCompaction: resultSchema,
  afterCompaction: resultSchema,
  onAgentSwitch: resultSchema,
  transformMessages: transformResultSchema,
};

/** A hook call slower than this is reported (the hard limit is the sandbox's call budget). */
export const SLOW_HOOK_MS = 500;

export interface HandlerOptions {
  plugin: () => LoadedPlugin;
  timing: HookTiming;
  condition: ConditionCheck | null;
  once: boolean;
  onceTracker: OnceTracker;
  pluginConfig: Record<string, unknown>;
  onSlow?(plugin: string, timing: HookTiming, ms: number): void;
}

export function pluginHandler<T extends HookTiming>(
  opts: HandlerOptions & { timing: T },
): HookHandler<T> {
  const { timing } = opts;
  return {
    source: opts.plugin().name,
    timing,
    async invoke(ctx: HookContexts[T]): Promise<HookInvocation<T>> {
      // Looked up per call: a reload swaps the plugin behind a stable handler.
      const plugin = opts.plugin();
      if (!plugin.available) return { status: "skipped", reason: `plugin ${plugin.status}` };
      const session = ctx.session.id;
      if (opts.once && opts.onceTracker.has(session, plugin.name, timing))
        return { status: "skipped", reason: "once: already fired" };
      let condition: { text: string; matched: boolean } | undefined;
      if (opts.condition) {
        let ok: boolean;
        try {
          ok = await opts.condition.test(ctx);
        } catch (err) {
          return {
            status: "error",
            message: `condition "${opts.condition.text}" failed: ${(err as Error).message}`,
          };
        }
        condition = { text: opts.condition.text, matched: ok };
        if (!ok)
          return {
            status: "skipped",
            reason: `condition false: ${opts.condition.text}`,
            condition,
          };
      }
      if (opts.once) opts.onceTracker.mark(session, plugin.name, timing);
      let raw: unknown;
      const started = performance.now();
      try {
        const payload = contextPayload(ctx, opts.pluginConfig);
        raw = await plugin.callJson(timing, payload.json, payload.lazy, payload.deferred);
      } catch (err) {
        return {
          status: "error",
          message: err instanceof PluginCallError ? err.message : String(err),
          condition,
        };
      } finally {
        const ms = performance.now() - started;
        // The watchdog's gentler half: name a plugin that slows every turn before it times out.
        if (ms > SLOW_HOOK_MS) opts.onSlow?.(plugin.name, timing, Math.round(ms));
      }
      if (raw === undefined || raw === null) return { status: "ok", result: undefined, condition };
      const parsed = SCHEMAS[timing].safeParse(raw);
      if (!parsed.success) {
        plugin.log.write(
          "error",
          `${timing} returned a malformed result: ${describeIssue(parsed.error)}`,
        );
        return {
          status: "error",
          message: `returned a malformed result (${describeIssue(parsed.error)})`,
          condition,
        };
      }
      return { status: "ok", result: parsed.data as HookResults[T], condition };
    },
  };
}
