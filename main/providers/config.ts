/**
 * providers.yaml: which model providers exist and which one is the default.
 *
 *   default: { provider: local, model: qwen3:8b }
 *   providers:
 *     local: { type: ollama, base_url: http://127.0.0.1:11434 }
 *     work:
 *       type: openai-compatible
 *       base_url: https://api.openai.com/v1
 *       api_key_env: OPENAI_API_KEY     # the key itself never goes in a file
 *       tools: auto                     # native | text | auto
 *       context_length: 128000
 *       headers: { X-Title: islet }
 *       model: gpt-4.1                  # this provider's default model
 *       capabilities: [tools, vision]   # when the server cannot tell
 *       timeouts: { connect: 10, first_token: 120, idle: 120 }   # seconds (timeouts.ts)
 *     embedded:
 *       type: local                     # GGUF models in <global home>/models/, run by llama.cpp
 *       model: qwen3-4b                 # a file name there (without .gguf)
 *       unload_after: 300               # seconds without a call before the model is unloaded
 *       threads: 4                      # CPU threads (default: the machine's math cores)
 *       gpu: false                      # CPU only (default: Metal, CUDA or Vulkan where present)
 *
 * Read from <home>/config/providers.yaml in the global and the project home; a project entry
 * replaces the global entry of the same name, and a project `default` replaces the global one.
 * Every problem is one line: file, field, what is wrong.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { LineCounter, parseDocument } from "yaml";
import { z } from "zod";
import { providerKind, ProviderKindSchema } from "../core/provider-kinds.ts";
import type { Remedy } from "../core/remedy.ts";
import type { ProviderKind } from "./types.ts";

export type ToolMode = "native" | "text" | "auto";

export interface ProviderConfig {
  name: string;
  type: ProviderKind;
  baseUrl?: string;
  apiKeyEnv?: string;
  tools: ToolMode;
  contextLength?: number;
  /** Percent of the window skills, agents, plugin and MCP tools may take (an agent's own wins). */
  extensionsBudget?: number;
  /** Percent of the window what hooks add at one point may take (an agent's own wins). */
  hookContextBudget?: number;
  headers?: Record<string, string>;
  model?: string;
  capabilities?: string[];
  /** Seconds; unset limits default by locality (main/providers/timeouts.ts). */
  timeouts?: { connect?: number; firstToken?: number; idle?: number };
  /** `local` only: seconds without a call before the model is unloaded (default 300). */
  unloadAfter?: number;
  /** `local` only: CPU threads for generation. */
  threads?: number;
  /** `local` only: false runs on the CPU even where a GPU is present. */
  gpu?: boolean;
  /** The file it came from ("" for flags and detection), for error messages. */
  source: string;
}

export interface ProvidersConfig {
  default?: { provider: string; model?: string; source: string };
  providers: Record<string, ProviderConfig>;
}

/** A configuration or usage problem, as one line naming the file and field. */
export class ConfigError extends Error {
  /** What the app offers instead of the message's advice (no model: a Download button). */
  readonly remedy: Remedy | undefined;
  constructor(message: string, remedy?: Remedy) {
    super(message);
    this.name = "ConfigError";
    this.remedy = remedy;
  }
}

const httpUrl = z.string().refine((s) => /^https?:\/\/[^\s/]+/.test(s) && URL.canParse(s), {
  message: "expected an http(s) URL like http://127.0.0.1:11434",
});

/** A day: far beyond any sensible limit, and inside what a timer can hold. */
const MAX_TIMEOUT_SECONDS = 86_400;

const seconds = z.custom<number>(
  (v) => typeof v === "number" && Number.isFinite(v) && v > 0 && v <= MAX_TIMEOUT_SECONDS,
  { message: `expected a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS} (e.g. 300)` },
);

const timeoutsSchema = z
  .object({
    connect: seconds.optional(),
    first_token: seconds.optional(),
    idle: seconds.optional(),
  })
  .strict();

/** A share of the model's window (extensions_budget, hook_context_budget). */
const windowPercent = z
  .number()
  .refine((n) => n >= 1 && n <= 100, "must be a percent of the window from 1 to 100");

const entrySchema = z
  .object({
    type: ProviderKindSchema,
    base_url: httpUrl.optional(),
    api_key_env: z
      .string()
      .regex(
        /^[A-Za-z_][A-Za-z0-9_]*$/,
        "expected an environment variable name like OPENAI_API_KEY",
      )
      .optional(),
    tools: z.enum(["native", "text", "auto"]).optional(),
    context_length: z.number().int().positive().optional(),
    extensions_budget: windowPercent.optional(),
    hook_context_budget: windowPercent.optional(),
    headers: z.record(z.string(), z.string()).optional(),
    model: z.string().min(1).optional(),
    capabilities: z.array(z.string()).optional(),
    timeouts: timeoutsSchema.optional(),
    unload_after: seconds.optional(),
    threads: z.number().int().positive().optional(),
    gpu: z.boolean().optional(),
  })
  .strict();

const fileSchema = z
  .object({
    default: z
      .object({ provider: z.string().min(1), model: z.string().min(1).optional() })
      .strict()
      .optional(),
    providers: z.record(z.string(), entrySchema).optional(),
  })
  .strict();

function describe(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "a mapping";
  return `${typeof v} ${JSON.stringify(v)}`;
}

/** One zod issue as "field: problem". */
function issueLine(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join(".");
  const at = (p: string) => (p ? `${p}: ` : "");
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case "unrecognized_keys": {
      const key = issue.keys[0];
      const field = path ? `${path}.${key}` : key;
      if (key === "api_key") {
        return `${field}: keys do not belong in files — set api_key_env to the name of an environment variable`;
      }
      return `${field}: unknown field`;
    }
    case "invalid_value":
      if (input === undefined)
        return `${at(path)}required (one of ${issue.values.map(String).join(", ")})`;
      return `${at(path)}expected one of ${issue.values.map(String).join(", ")}, got ${describe(input)}`;
    case "invalid_type":
      if (input === undefined) return `${at(path)}required`;
      return `${at(path)}expected ${issue.expected === "object" || issue.expected === "record" ? "a mapping" : issue.expected}, got ${describe(input)}`;
    case "too_small":
      return `${at(path)}${issue.origin === "number" ? "must be a positive integer" : "must not be empty"}`;
    default:
      return `${at(path)}${issue.message}`;
  }
}

/** Parses one providers.yaml text; `file` names it in errors. */
export function parseProvidersYaml(text: string, file: string): ProvidersConfig {
  const lines = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, lineCounter: lines });
  const yamlError = doc.errors[0];
  if (yamlError) {
    const pos = lines.linePos(yamlError.pos[0]);
    const message = yamlError.message.split("\n")[0];
    throw new ConfigError(`${file}:${pos.line}:${pos.col}: invalid YAML: ${message}`);
  }
  const data: unknown = doc.toJS() ?? {};
  const parsed = fileSchema.safeParse(data, { reportInput: true });
  if (!parsed.success) throw new ConfigError(`${file}: ${issueLine(parsed.error.issues[0])}`);
  const providers: Record<string, ProviderConfig> = {};
  for (const [name, e] of Object.entries(parsed.data.providers ?? {})) {
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(name)) {
      throw new ConfigError(
        `${file}: providers.${name}: names use letters, digits, ".", "-" and "_"`,
      );
    }
    const needsUrl = providerKind(e.type).urlRequired;
    if (needsUrl && !e.base_url) {
      throw new ConfigError(
        `${file}: providers.${name}.base_url: required for ${e.type} (e.g. ${needsUrl.example})`,
      );
    }
    providers[name] = {
      name,
      type: e.type,
      baseUrl: e.base_url,
      apiKeyEnv: e.api_key_env,
      tools: e.tools ?? "auto",
      contextLength: e.context_length,
      ...(e.extensions_budget !== undefined ? { extensionsBudget: e.extensions_budget } : {}),
      ...(e.hook_context_budget !== undefined ? { hookContextBudget: e.hook_context_budget } : {}),
      headers: e.headers,
      model: e.model,
      capabilities: e.capabilities,
      ...(e.unload_after !== undefined ? { unloadAfter: e.unload_after } : {}),
      ...(e.threads !== undefined ? { threads: e.threads } : {}),
      ...(e.gpu !== undefined ? { gpu: e.gpu } : {}),
      ...(e.timeouts
        ? {
            timeouts: {
              connect: e.timeouts.connect,
              firstToken: e.timeouts.first_token,
              idle: e.timeouts.idle,
            },
          }
        : {}),
      source: file,
    };
  }
  const d = parsed.data.default;
  return {
    providers,
    ...(d ? { default: { provider: d.provider, model: d.model, source: file } } : {}),
  };
}

/** A providers.yaml file, or undefined when it does not exist. */
export async function loadProvidersFile(file: string): Promise<ProvidersConfig | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ConfigError(`${file}: cannot read: ${(err as Error).message}`);
  }
  return parseProvidersYaml(text, file);
}

/** Later configs win: whole provider entries by name, and `default`. */
export function mergeProvidersConfigs(
  ...configs: (ProvidersConfig | undefined)[]
): ProvidersConfig {
  const out: ProvidersConfig = { providers: {} };
  for (const c of configs) {
    if (!c) continue;
    Object.assign(out.providers, c.providers);
    if (c.default) out.default = c.default;
  }
  return out;
}

/** Global then project home (either may be absent); project overrides global. */
export async function loadProvidersConfig(homes: {
  global?: string;
  project?: string;
}): Promise<ProvidersConfig> {
  const file = (home?: string) =>
    home ? loadProvidersFile(join(home, "config", "providers.yaml")) : undefined;
  return mergeProvidersConfigs(await file(homes.global), await file(homes.project));
}
