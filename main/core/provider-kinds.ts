/**
 * The kinds of model provider, one row each. providers.yaml's `type`, the bridge's schemas, the
 * resolver's defaults and Settings' provider form all read this table; how each kind is built
 * lives with its provider (main/providers/kinds.ts). Plain data and zod: the renderer bundles it.
 */
import { z } from "zod";
import { oneOf } from "./words.ts";

/** The environment variable a kind's API key conventionally comes from. */
export interface ProviderKeyRule {
  readonly variable: string;
  /** Only for servers off this machine and LAN: a local server is never sent a cloud key. */
  readonly remoteOnly?: boolean;
  /** The kind cannot be used without one. */
  readonly required?: boolean;
}

export interface ProviderKindRow {
  /** How Settings names it. */
  readonly label: string;
  /** The server used when base_url is unset; null: none. */
  readonly defaultUrl: string | null;
  /** base_url must be set (each server of the kind is somewhere else): one to suggest. */
  readonly urlRequired?: { readonly example: string };
  /** null: no key unless api_key_env names one. */
  readonly key: ProviderKeyRule | null;
  /**
   * Settings' "Add a provider" form offers it: its place in the list, and the base URL the empty
   * field suggests (default: `defaultUrl`). Absent: set up elsewhere (local: the Models screen).
   */
  readonly form?: { readonly order: number; readonly url?: string };
}

export const PROVIDER_KIND_TABLE = {
  ollama: {
    label: "Ollama",
    defaultUrl: "http://127.0.0.1:11434",
    key: null,
    form: { order: 3 },
  },
  "openai-compatible": {
    label: "OpenAI-compatible",
    defaultUrl: null,
    urlRequired: { example: "http://127.0.0.1:8080/v1" },
    key: { variable: "OPENAI_API_KEY", remoteOnly: true },
    form: { order: 1, url: "https://api.openai.com/v1" },
  },
  anthropic: {
    label: "Anthropic",
    defaultUrl: "https://api.anthropic.com",
    key: { variable: "ANTHROPIC_API_KEY", required: true },
    form: { order: 2 },
  },
  local: {
    label: "Embedded (llama.cpp)",
    defaultUrl: null,
    key: null,
  },
} as const satisfies Record<string, ProviderKindRow>;

export type ProviderKind = keyof typeof PROVIDER_KIND_TABLE;

/** Every kind, in the table's order (the order messages list them in). */
export const PROVIDER_KINDS = Object.keys(PROVIDER_KIND_TABLE) as [ProviderKind, ...ProviderKind[]];

/** A kind's row, widened to the row type (fields a row leaves out read as undefined). */
export function providerKind(kind: ProviderKind): ProviderKindRow {
  return PROVIDER_KIND_TABLE[kind];
}

export const ProviderKindSchema = z.enum(PROVIDER_KINDS);

/** The kinds as a message lists them: "ollama, openai-compatible, anthropic or local". */
export const PROVIDER_KIND_CHOICES = oneOf(PROVIDER_KINDS);

/** What Settings' provider form offers, in its order. */
export const PROVIDER_FORM_KINDS: readonly { kind: ProviderKind; label: string; url: string }[] =
  PROVIDER_KINDS.filter((kind) => providerKind(kind).form)
    .sort((a, b) => (providerKind(a).form?.order ?? 0) - (providerKind(b).form?.order ?? 0))
    .map((kind) => {
      const row = providerKind(kind);
      return { kind, label: row.label, url: row.form?.url ?? row.defaultUrl ?? "" };
    });
