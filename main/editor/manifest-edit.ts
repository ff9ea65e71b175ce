/**
 * Plugin state the editor changes in plugin.yaml itself, keeping the author's comments and
 * layout (yaml's Document API): `disabled:` (how seed 000 turns a plugin off) and the `config:`
 * defaults, edited through a form generated from them. The hot reload then applies it.
 */
import { readFile, writeFile } from "node:fs/promises";
import { parseDocument } from "yaml";
import { parseManifest } from "../code-plugins/loader/manifest.ts";
import { ProblemError } from "../host/problem.ts";

export type ConfigFieldType = "boolean" | "number" | "string" | "list" | "json";

export interface ConfigField {
  key: string;
  type: ConfigFieldType;
  /** plugin.yaml's value. */
  value: unknown;
  /** What the plugin gets (ctx.pluginConfig): plugin.yaml, then the features files. */
  effective: unknown;
  /** A features file sets this key, so plugin.yaml's value does not reach the plugin. */
  overridden: boolean;
}

export function fieldType(value: unknown): ConfigFieldType {
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "number") return "number";
  if (typeof value === "string") return "string";
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return "list";
  return "json";
}

async function readDocument(file: string) {
  const text = await readFile(file, "utf8");
  const doc = parseDocument(text);
  if (doc.errors.length > 0)
    throw new Error(`${file}: ${doc.errors[0].message.split("\n")[0]}; fix it in the editor first`);
  return doc;
}

/** Writes `disabled: true`, or removes the field (enabled is the default). */
export async function setDisabled(file: string, disabled: boolean): Promise<void> {
  const doc = await readDocument(file);
  if (disabled) doc.set("disabled", true);
  else doc.delete("disabled");
  await writeFile(file, String(doc));
}

/** The form: one field per key of plugin.yaml's `config:`, typed by its value there. */
export async function configFields(
  file: string,
  effective: Record<string, unknown>,
  overriddenKeys: ReadonlySet<string>,
): Promise<ConfigField[]> {
  const read = parseManifest(await readFile(file, "utf8"), file);
  if (!read.ok) throw new ProblemError(read.errors[0]);
  return Object.entries(read.manifest.config).map(([key, value]) => ({
    key,
    type: fieldType(value),
    value,
    effective: key in effective ? effective[key] : value,
    overridden: overriddenKeys.has(key),
  }));
}

/**
 * Saves new values for existing keys; each must keep its field's type (a number stays a number):
 * the plugin's code was written for that type. Refusals name the key and what was expected.
 */
export async function saveConfig(
  file: string,
  plugin: string,
  values: Record<string, unknown>,
): Promise<void> {
  const read = parseManifest(await readFile(file, "utf8"), file);
  if (!read.ok) throw new ProblemError(read.errors[0]);
  const defaults = read.manifest.config;
  for (const [key, value] of Object.entries(values)) {
    if (!(key in defaults))
      throw new Error(
        `${plugin}: config has no field "${key.slice(0, 60)}"; add it to plugin.yaml first`,
      );
    const want = fieldType(defaults[key]);
    if (want !== "json" && fieldType(value) !== want)
      throw new Error(
        `${plugin}: config.${key}: expected ${want === "list" ? "a list of text" : `a ${want}`}, got ${JSON.stringify(value)?.slice(0, 60)}`,
      );
    if (typeof value === "number" && !Number.isFinite(value))
      throw new Error(`${plugin}: config.${key}: expected a finite number`);
  }
  const doc = await readDocument(file);
  for (const [key, value] of Object.entries(values)) doc.setIn(["config", key], value);
  await writeFile(file, String(doc));
}
