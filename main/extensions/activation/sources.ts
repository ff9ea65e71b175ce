/**
 * The sources of activatable plugins the engine lists (one line each): add a source here and its
 * plugins are listed to the model, activated on request and remembered per workspace.
 */
import type { Homes } from "../../config/homes.ts";
import { ask, type QuestionPort } from "../../host/questions.ts";
import type { ConsentGate } from "../../code-plugins/consent/gate.ts";
import type { PluginFlags } from "../../code-plugins/loader/features.ts";
import type { PluginRuntime } from "../../code-plugins/runtime/runtime.ts";
import type { ActivatableSource } from "./activatable.ts";
import { RunnerPluginSource } from "../runners/source.ts";
import { CodePluginSource } from "./code-source.ts";
import type { Problem } from "../../host/problem.ts";

/** What a source may need from the engine. */
export interface ActivationContext {
  homes: Homes;
  /** Whether the project's `.islet/` may widen anything (a getter: trust can come later). */
  readonly trustedProject: boolean;
  env: Record<string, string | undefined>;
  warn(problem: Problem): void;
  /** The engine's code plugin runtime now (null before loadPlugins or with --without-plugins). */
  plugins(): PluginRuntime | null;
  /** Plugins' permission requests (an on-demand code plugin's are asked when it is activated). */
  consent: ConsentGate;
  /** The plugin flags of the last load (`withoutPlugins` when plugins are off). */
  pluginFlags(): PluginFlags;
  /** Who is asked before a runner's `command_install` runs (docker pull …). */
  questions?: QuestionPort;
}

export function activatableSources(ctx: ActivationContext): ActivatableSource[] {
  return [
    new CodePluginSource(ctx.plugins, ctx.consent),
    new RunnerPluginSource({
      homes: ctx.homes,
      flags: () => ({ ...ctx.pluginFlags(), trustedProject: ctx.trustedProject }),
      env: ctx.env,
      warn: ctx.warn,
      confirmInstall: async (request, signal) =>
        (await ask(ctx.questions, { kind: "runner-install", ...request }, signal)).answer ===
        "install",
    }),
  ];
}
