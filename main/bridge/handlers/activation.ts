/**
 * `activation/*`: the plugin browser's on-demand plugins (engine.activation). Activating asks the
 * calling window; every change, whoever made it, goes to every client as `activation/changed`.
 */
import type { ActivationRegistry } from "../../extensions/activation/registry.ts";
import type { BridgeQuestions } from "../questions.ts";
import { EVERYONE, toClient, type BridgeService, type CallHandlers } from "../service.ts";

/** What the activation calls ask of the engine: these parts of its on-demand plugins' registry. */
export type ActivationPort = Pick<
  ActivationRegistry,
  "list" | "refresh" | "activate" | "deactivate" | "onChange"
>;

export function activationHandlers(
  registry: ActivationPort,
  service: Pick<BridgeService, "emit">,
  questions: BridgeQuestions,
): Pick<CallHandlers, "activation/list" | "activation/activate" | "activation/deactivate"> {
  registry.onChange(() =>
    service.emit(EVERYONE, "activation/changed", { plugins: registry.list() }),
  );
  return {
    "activation/list": async () => {
      await registry.refresh();
      return { plugins: registry.list() };
    },
    "activation/activate": async ({ name }, { client, signal }) => {
      const outcome = await registry.activate(name, {
        by: "user",
        reason: "you asked to activate it in the plugin browser",
        questions: questions.port(() => toClient(client)),
        signal,
      });
      return { outcome: outcome.kind, line: outcome.line, plugins: registry.list() };
    },
    "activation/deactivate": async ({ name }) => ({
      deactivated: await registry.deactivate(name),
      plugins: registry.list(),
    }),
  };
}
