/** `models/*`: local servers and configured providers with their models, and choosing one. */
import { z } from "zod";
import { ProviderKindSchema } from "../../core/provider-kinds.ts";

export const ModelRef = z.strictObject({ provider: z.string().min(1), model: z.string().min(1) });
export type ModelRef = z.infer<typeof ModelRef>;

export const ModelServer = z.strictObject({
  /** The provider name to select (a providers.yaml entry, or ollama / lmstudio / llamacpp). */
  provider: z.string(),
  /** What to show ("Ollama", "LM Studio", the configured name…). */
  label: z.string(),
  /** "local": the embedded runtime (its baseUrl is the models folder). */
  kind: ProviderKindSchema,
  baseUrl: z.string(),
  source: z.enum(["detected", "configured", "embedded"]),
  models: z.array(z.string()),
  /** Why its models could not be listed (server down, key missing…). */
  error: z.string().nullable(),
});
export type ModelServer = z.infer<typeof ModelServer>;

export const ModelsList = {
  request: z.strictObject({ conversationId: z.string().min(1).optional() }),
  response: z.strictObject({
    servers: z.array(ModelServer),
    /** The conversation's model, else the one a new conversation gets; null: none found yet. */
    current: ModelRef.nullable(),
    /** Why there is no current model (nothing running, nothing configured). */
    currentError: z.string().nullable(),
  }),
};

/** With `conversationId`: that conversation's next turn uses it; without: the default for new ones. */
export const ModelsSelect = {
  request: z.strictObject({
    conversationId: z.string().min(1).optional(),
    provider: z.string().min(1, "provider: required"),
    model: z.string().min(1, "model: required"),
  }),
  response: z.strictObject({ current: ModelRef, scope: z.enum(["conversation", "default"]) }),
};

/** A download of the embedded runtime's models, as the `models/download` event reports it. */
export const ModelDownload = z.strictObject({
  name: z.string(),
  title: z.string(),
  /** What `models/download` was given (a catalog name or a URL): giving it again resumes. */
  source: z.string(),
  state: z.enum(["running", "done", "failed", "cancelled"]),
  received: z.number(),
  total: z.number().nullable(),
  bytesPerSecond: z.number(),
  secondsLeft: z.number().nullable(),
  /** One line in the app's words: what went wrong and what to do (state "failed"). */
  error: z.string().nullable(),
  /** Bytes kept from a failed or cancelled download: starting it again resumes from there. */
  partial: z.number().int().nonnegative(),
});
export type ModelDownload = z.infer<typeof ModelDownload>;

const Fit = z.enum(["fits", "tight", "too-big"]);

export const LocalModelView = z.strictObject({
  name: z.string(),
  size: z.number(),
  architecture: z.string().nullable(),
  parameters: z.number().nullable(),
  contextLength: z.number().nullable(),
  quantization: z.string().nullable(),
  memoryNeeded: z.number().nullable(),
  fit: Fit.nullable(),
  /** Why the file cannot be used (one line), or null. */
  error: z.string().nullable(),
  /** New chats use it (the default model is this one, on the embedded runtime). */
  inUse: z.boolean(),
});

export const CatalogModelView = z.strictObject({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  size: z.number(),
  quantization: z.string(),
  parameters: z.string(),
  memoryNeeded: z.number(),
  license: z.string(),
  url: z.string(),
  fit: Fit,
  downloaded: z.boolean(),
});

/** The embedded runtime's models: downloaded, the catalog, downloads under way. */
export const ModelsLocal = {
  request: z.undefined(),
  response: z.strictObject({
    dir: z.string(),
    models: z.array(LocalModelView),
    catalog: z.array(CatalogModelView),
    /** The catalog model to offer first on this machine (the largest that fits comfortably). */
    recommended: z.string().nullable(),
    totalMemory: z.number(),
    downloads: z.array(ModelDownload),
    /** Why the catalog could not be read (one line), or null. */
    catalogError: z.string().nullable(),
  }),
};

/** Starts downloading a catalog model (or a .gguf URL); progress comes as `models/download`. */
export const ModelsDownload = {
  request: z.strictObject({ name: z.string().min(1, "name: required") }),
  response: ModelDownload,
};

/**
 * Adds a GGUF file from this computer to the models folder (linked, else copied). The path is a
 * person's, typed or pasted: the engine checks it is a readable GGUF file before taking it.
 */
export const ModelsAddFile = {
  request: z.strictObject({
    path: z.string().min(1, "path: required").max(4096, "path: too long"),
  }),
  response: z.strictObject({ name: z.string() }),
};

/** The desktop app's native open dialog for a .gguf file (null: closed without one). */
export const ModelsPickFile = {
  request: z.undefined(),
  response: z.strictObject({ path: z.string().nullable() }),
};

export const ModelsCancelDownload = {
  request: z.strictObject({ name: z.string().min(1, "name: required") }),
  response: z.strictObject({ cancelled: z.boolean() }),
};

export const ModelsDelete = {
  request: z.strictObject({ name: z.string().min(1, "name: required") }),
  response: z.strictObject({ name: z.string() }),
};
