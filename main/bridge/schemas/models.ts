/** `models/*`: local servers and configured providers with their models, and choosing one. */
import { z } from "zod";

export const ModelRef = z.strictObject({ provider: z.string().min(1), model: z.string().min(1) });
export type ModelRef = z.infer<typeof ModelRef>;

export const ModelServer = z.strictObject({
  /** The provider name to select (a providers.yaml entry, or ollama / lmstudio / llamacpp). */
  provider: z.string(),
  /** What to show ("Ollama", "LM Studio", the configured name…). */
  label: z.string(),
  kind: z.enum(["ollama", "openai-compatible", "anthropic", "local"]),
  baseUrl: z.string(),
  source: z.enum(["detected", "configured"]),
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
