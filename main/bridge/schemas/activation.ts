/**
 * `activation/*`: on-demand plugins (main/extensions/activation/) for the plugin browser: every
 * one with its status; activate (asks the calling window, with the consent details) or deactivate.
 */
import { z } from "zod";

export const ActivationItem = z.strictObject({
  name: z.string(),
  description: z.string(),
  kind: z.enum(["runner", "code"]),
  manifestFile: z.string(),
  consentDetails: z.array(z.string()),
  status: z.enum(["active", "inactive", "failed", "held-back"]),
  /** failed: why (one line); held-back: what to do. */
  reason: z.string().optional(),
  source: z.string(),
});
export type ActivationItem = z.infer<typeof ActivationItem>;

const PluginName = z.string().min(1, "name: required");

const ActivationList = z.strictObject({ plugins: z.array(ActivationItem) });

export const ACTIVATION_CALLS = {
  /** Rediscovers, then lists every activatable plugin; any client. */
  "activation/list": { request: z.undefined(), response: ActivationList },
  /**
   * Asks the calling client the plugin-activation question, then activates; `outcome` is the one
   * line the model would get (activated / denied / failed: why / unknown / held back).
   */
  "activation/activate": {
    request: z.strictObject({ name: PluginName }),
    response: z.strictObject({
      outcome: z.enum(["activated", "denied", "failed", "unknown", "held-back"]),
      line: z.string(),
      plugins: z.array(ActivationItem),
    }),
  },
  /** Deactivates (its processes stop) and forgets the workspace's record. */
  "activation/deactivate": {
    request: z.strictObject({ name: PluginName }),
    response: z.strictObject({ deactivated: z.boolean(), plugins: z.array(ActivationItem) }),
  },
} as const;

export const ACTIVATION_EVENTS = {
  /** A plugin was activated or deactivated, or the set changed (by anyone: the model, /plugin). */
  "activation/changed": ActivationList,
} as const;
