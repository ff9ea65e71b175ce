/**
 * `settings/*`: what the Settings screen shows and changes. API keys go in and never come back:
 * the renderer only learns whether one is set.
 */
import { z } from "zod";
import { APPROVAL_RULES } from "../../core/approval-rules.ts";
import { PROVIDER_KIND_CHOICES, PROVIDER_KINDS } from "../../core/provider-kinds.ts";
import { SANDBOX_BACKEND_NAMES } from "../../core/sandbox-backends.ts";
import { oneOf } from "../../core/words.ts";
import { ModelRef } from "./models.ts";

const THEME = z.enum(["system", "light", "dark"], {
  error: "theme: expected system, light or dark",
});
const RULE = z.enum(APPROVAL_RULES, { error: `expected ${oneOf(APPROVAL_RULES)}` });
const RUNTIMES = ["auto", ...SANDBOX_BACKEND_NAMES] as const;
const RUNTIME = z.enum(RUNTIMES, { error: `pluginRuntime: expected ${oneOf(RUNTIMES)}` });
const KIND = z.enum(PROVIDER_KINDS, { error: `type: expected ${PROVIDER_KIND_CHOICES}` });
const PROVIDER_NAME = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/,
    "name: letters, digits, '.', '-' and '_' (like work-openai)",
  );
const BASE_URL = z
  .string()
  .trim()
  .refine((s) => s === "" || (/^https?:\/\/[^\s/]+/.test(s) && URL.canParse(s)), {
    message: "baseUrl: expected an http(s) URL like http://127.0.0.1:11434",
  });

export const ProviderView = z.strictObject({
  name: z.string(),
  type: KIND,
  baseUrl: z.string().nullable(),
  model: z.string().nullable(),
  apiKeyEnv: z.string().nullable(),
  /** The share of the model's window extensions may take (percent); null: the default. */
  extensionsBudget: z.number().nullable(),
  /** The share of the model's window what hooks add at once may take (percent); null: the default. */
  hookContextBudget: z.number().nullable(),
  /** "set": a key is stored or in the environment; never the key itself. */
  key: z.enum(["set", "not set", "not needed"]),
  /** Where the key comes from when set. */
  keySource: z.enum(["stored", "environment"]).nullable(),
  /** "project": from the workspace's .islet/ (Settings edits the global file only). */
  source: z.enum(["global", "project"]),
});
export type ProviderView = z.infer<typeof ProviderView>;

export const ApprovalRow = z.strictObject({
  tool: z.string(),
  rule: RULE,
  /** What it is when nobody chose. */
  defaultRule: RULE,
});

export const SettingsView = z.strictObject({
  theme: THEME,
  defaultModel: ModelRef.nullable(),
  defaultAgent: z.string(),
  providers: z.array(ProviderView),
  /** A providers.yaml that cannot be read (then the list may be incomplete). */
  providersError: z.string().nullable(),
  providersFile: z.string(),
  keys: z.strictObject({ available: z.boolean(), protection: z.string() }),
  approvals: z.strictObject({
    workdir: z.string(),
    file: z.string(),
    tools: z.array(ApprovalRow),
  }),
  plugins: z.strictObject({
    /** What features/plugins.yaml in the global home asks for. */
    runtime: RUNTIME,
    unsafe: z.boolean(),
    /** What runs now; differs from the above until a restart. */
    active: z.strictObject({ runtime: z.string().nullable(), unsafe: z.boolean() }),
    file: z.string(),
  }),
  /** The app settings file (electron-store's format). */
  file: z.string(),
});
export type SettingsView = z.infer<typeof SettingsView>;

export const SettingsGet = { request: z.undefined(), response: SettingsView };

export const SettingsSet = {
  request: z.strictObject({
    theme: THEME.optional(),
    /** Tool → rule for this workspace ("ask" returns a tool to asking). */
    approvals: z.record(z.string().min(1), RULE).optional(),
    pluginRuntime: RUNTIME.optional(),
    unsafePlugins: z.boolean({ error: "unsafePlugins: expected true or false" }).optional(),
  }),
  response: SettingsView,
};

const ProviderDraft = z.strictObject({
  name: PROVIDER_NAME,
  type: KIND,
  baseUrl: BASE_URL.optional(),
  model: z.string().trim().max(200).optional(),
  /** Write-only: stored in the key store, never in providers.yaml, never sent back. */
  apiKey: z.string().max(4096).optional(),
});

/** A whole percent of the window, or null (back to the default); the error names the field. */
function windowPercent(field: string) {
  const error = `${field}: expected a whole percent from 1 to 100`;
  return z
    .number({ error })
    .int({ error })
    .min(1, { error })
    .max(100, { error })
    .nullable()
    .optional();
}

export const SettingsSaveProvider = {
  request: ProviderDraft.extend({
    /** The name it had (a rename). */
    previousName: PROVIDER_NAME.optional(),
    /** Forget the stored key. */
    clearKey: z.boolean().optional(),
    /** providers.yaml's extensions_budget (percent); null: back to the default; absent: as is. */
    extensionsBudget: windowPercent("extensionsBudget"),
    /** providers.yaml's hook_context_budget, the same way. */
    hookContextBudget: windowPercent("hookContextBudget"),
  }),
  response: SettingsView,
};

export const SettingsRemoveProvider = {
  request: z.strictObject({ name: PROVIDER_NAME }),
  response: SettingsView,
};

/** A real request (list the models): a saved provider by name, or a draft being edited. */
export const SettingsTestProvider = {
  request: z.union([z.strictObject({ name: z.string().min(1) }), ProviderDraft]),
  response: z.strictObject({
    ok: z.boolean(),
    /** One line: how many models, or what failed and what to do. */
    message: z.string(),
    models: z.array(z.string()),
    ms: z.number(),
  }),
};

export const SettingsChanged = z.strictObject({
  section: z.enum([
    "appearance",
    "providers",
    "models",
    "agents",
    "approvals",
    "plugins",
    "workspace",
  ]),
});
