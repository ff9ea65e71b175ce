/**
 * Changes to the global providers.yaml made from Settings: one provider added, changed or
 * removed, or the default set, through yaml's Document API so the user's comments and layout
 * survive. The result is parsed with the same rules as at start-up before it is written, so
 * Settings can never leave a file the engine refuses.
 */
import { readFile } from "node:fs/promises";
import { isMap, isScalar, parseDocument, type Document } from "yaml";
import { writeAtomically } from "../config/atomic-write.ts";
import { queuedEdit } from "../config/file-queue.ts";
import { ConfigError, parseProvidersYaml } from "./config.ts";
import type { ProviderKind } from "./types.ts";

/** One provider as Settings edits it (YAML field names). */
export interface ProviderEntryEdit {
  type: ProviderKind;
  base_url?: string;
  api_key_env?: string;
  model?: string;
  /** Absent: left as written; undefined value: removed (the default). */
  extensions_budget?: number;
  /** Absent: left as written; undefined value: removed (the default). */
  hook_context_budget?: number;
}

/** The shares of the window Settings edits: written only when it sent them. */
const BUDGETS = ["extensions_budget", "hook_context_budget"] as const;

const HEADER =
  "# Model providers (see Islet's README, Configuration). Keys never go here: api_key_env names\n" +
  "# where the key comes from (the environment, the env file, or the key store Settings fills).\n";

async function load(file: string): Promise<Document> {
  let text = "";
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT")
      throw new ConfigError(`${file}: cannot read: ${(err as Error).message}`);
  }
  const doc = parseDocument(text.trim() === "" ? `${HEADER}{}\n` : text);
  if (doc.errors.length > 0)
    throw new ConfigError(
      `${file}: invalid YAML (${doc.errors[0].message.split("\n")[0]}); fix it by hand first`,
    );
  if (doc.contents !== null && !isMap(doc.contents))
    throw new ConfigError(`${file}: expected a mapping at the top; fix it by hand first`);
  return doc;
}

async function save(file: string, doc: Document): Promise<void> {
  const text = doc.toString();
  parseProvidersYaml(text, file); // refuses what the engine would refuse, naming the field
  await writeAtomically(file, text);
}

/** Adds or replaces `providers.<name>`; `previous` renames an existing entry. */
export function saveProviderEntry(
  file: string,
  name: string,
  entry: ProviderEntryEdit,
  previous?: string,
): Promise<void> {
  return queuedEdit(file, () => saveEntry(file, name, entry, previous));
}

async function saveEntry(
  file: string,
  name: string,
  entry: ProviderEntryEdit,
  previous: string | undefined,
): Promise<void> {
  const doc = await load(file);
  if (previous && previous !== name) {
    if (doc.hasIn(["providers", name]))
      throw new ConfigError(`${file}: providers.${name}: a provider with that name exists`);
    // The entry keeps its place, comments and the fields Settings does not edit: only its key changes.
    const providers = doc.get("providers");
    const pair = isMap(providers)
      ? providers.items.find((p) => isScalar(p.key) && p.key.value === previous)
      : undefined;
    if (pair && isScalar(pair.key)) pair.key.value = name;
    if (doc.getIn(["default", "provider"]) === previous) doc.setIn(["default", "provider"], name);
  }
  const fields: [keyof ProviderEntryEdit, string | number | undefined][] = [
    ["type", entry.type],
    ["base_url", entry.base_url],
    ["api_key_env", entry.api_key_env],
    ["model", entry.model],
    // Only when Settings sent it: an older page saving a provider leaves the budget alone.
    ...BUDGETS.filter((b) => b in entry).map(
      (b) => [b, entry[b]] as [keyof ProviderEntryEdit, number | undefined],
    ),
  ];
  if (!doc.hasIn(["providers", name])) doc.setIn(["providers", name], doc.createNode({}));
  for (const [key, value] of fields) {
    // Only the fields Settings edits: headers, timeouts and the rest stay as written.
    if (value === undefined || value === "") doc.deleteIn(["providers", name, key]);
    else doc.setIn(["providers", name, key], value);
  }
  await save(file, doc);
}

export function removeProviderEntry(file: string, name: string): Promise<boolean> {
  return queuedEdit(file, async () => {
    const doc = await load(file);
    if (!doc.hasIn(["providers", name])) return false;
    doc.deleteIn(["providers", name]);
    if (doc.getIn(["default", "provider"]) === name) doc.delete("default");
    await save(file, doc);
    return true;
  });
}

export function saveDefaultModel(file: string, provider: string, model: string): Promise<void> {
  return queuedEdit(file, async () => {
    const doc = await load(file);
    doc.set("default", doc.createNode({ provider, model }, { flow: true }));
    await save(file, doc);
  });
}
