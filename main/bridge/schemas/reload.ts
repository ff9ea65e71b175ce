/** How one plugin's reload went: the editor, packs and the plugin browser all answer with it. */
import { z } from "zod";
import { Problem } from "../../host/problem.ts";

export const ReloadResult = z.strictObject({
  name: z.string(),
  ok: z.boolean(),
  ms: z.number(),
  error: z.string().optional(),
  /** What `error` is about, whole (file, line, column). */
  problems: z.array(Problem).optional(),
});
export type ReloadResult = z.infer<typeof ReloadResult>;
