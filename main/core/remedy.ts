/**
 * What the app can offer to fix an error where it is shown, so its words never send a person to
 * a terminal: the engine's message stays worded for the CLI, and the remedy tells the UI which
 * buttons to put beside it. Plain zod, no Node: the renderer bundles this file.
 */
import { z } from "zod";

/** "get_model": no model to chat with (nothing running, nothing configured, nothing downloaded). */
export const RemedySchema = z.enum(["get_model"]);
export type Remedy = z.infer<typeof RemedySchema>;

/** The remedy an error carries (its `remedy` property), if it is one the UI knows. */
export function remedyOf(err: unknown): Remedy | undefined {
  if (typeof err !== "object" || err === null || !("remedy" in err)) return undefined;
  const parsed = RemedySchema.safeParse(err.remedy);
  return parsed.success ? parsed.data : undefined;
}
