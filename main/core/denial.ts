/**
 * Why a tool call did not run for want of approval, so the app and the CLI show it as a choice,
 * not a failure: "user" (the person said no), "no_one" (a yes was needed and nobody could be
 * asked: headless, no terminal, no --yes, the window gone), "rule" (set to never run here),
 * "stopped" (the turn was stopped while the question was open). Plain zod, no Node: the renderer bundles this file.
 */
import { z } from "zod";

export const DenialSchema = z.enum(["user", "no_one", "rule", "stopped"]);
export type Denial = z.infer<typeof DenialSchema>;
