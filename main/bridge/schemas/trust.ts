/**
 * `trust/*`: the workspace's trust in Settings (SPEC §6). The folder is always the engine's
 * workspace: no request names one, so a window cannot trust some other folder.
 */
import { z } from "zod";

export const WorkspaceTrustView = z.strictObject({
  /** The engine's workspace folder. */
  folder: z.string(),
  trusted: z.boolean(),
  /** One line on why (WorkspaceTrust.why). */
  why: z.string(),
  /** What the folder's `.islet/` asks for: held back while untrusted, allowed once trusted. */
  asks: z.array(z.string()),
  /** False when the workspace's `.islet/` is the global home (always trusted). */
  changeable: z.boolean(),
});
export type WorkspaceTrustView = z.infer<typeof WorkspaceTrustView>;

export const TRUST_CALLS = {
  /** The workspace's trust now; any client. */
  "trust/get": { request: z.undefined(), response: WorkspaceTrustView },
  /**
   * Trusts the workspace or stops trusting it (recorded as the user's "no"); applied live.
   * Emits `settings/changed` (section workspace) and `plugins/changed`; any client.
   */
  "trust/set": { request: z.strictObject({ trusted: z.boolean() }), response: WorkspaceTrustView },
};
