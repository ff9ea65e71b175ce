/**
 * The engine's one hook registry: every source of hook handlers (code plugins now; Claude Code
 * plugins' hooks.json and shell hooks later) adds itself here, and conversations read through it
 * on every call, so a conversation opened before plugins loaded, or before a reload, sees today's
 * handlers.
 */
import type { HookHandler, HookRegistry, HookTiming } from "../turn/hooks/types.ts";
import { disposable, type Disposable } from "../lifecycle/disposable.ts";

/**
 * Where each kind of source runs in every hook timing, lowest first. Gaps leave room for new kinds.
 * - Code plugins first, alphabetically among themselves: they rewrite messages and arguments.
 * - Claude Code plugins' hooks (hooks.json) next.
 * - The user's own shell hooks (config/hooks/*.yaml) last: they are the user's policy, so a
 *   PreToolUse check sees the arguments as they will really run, after every plugin's rewrite.
 */
export const HOOK_SOURCE_ORDER = {
  codePlugins: 100,
  claudePlugins: 200,
  shellHooks: 300,
} as const;

interface Source {
  readonly order: number;
  readonly registry: HookRegistry;
}

const NONE: readonly HookHandler[] = [];

export class HookSources implements HookRegistry {
  /** Sorted by order; within one order, by when the source was added. */
  private sources: Source[] = [];

  add(registry: HookRegistry, order: number): Disposable {
    const source: Source = { order, registry };
    const at = this.sources.findIndex((s) => s.order > order);
    this.sources =
      at < 0
        ? [...this.sources, source]
        : [...this.sources.slice(0, at), source, ...this.sources.slice(at)];
    return disposable(() => {
      this.sources = this.sources.filter((s) => s !== source);
    });
  }

  handlers<T extends HookTiming>(timing: T): readonly HookHandler<T>[] {
    const sources = this.sources;
    // The common cases allocate nothing: the pipeline calls this before every hook point.
    if (sources.length === 0) return NONE as readonly HookHandler<T>[];
    if (sources.length === 1) return sources[0].registry.handlers(timing);
    const out: HookHandler<T>[] = [];
    for (const s of sources) out.push(...s.registry.handlers(timing));
    return out;
  }
}
