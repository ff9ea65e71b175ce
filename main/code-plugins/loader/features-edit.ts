/**
 * Settings' changes to the global features/plugins.yaml (the sandbox runtime, unsafe mode),
 * through yaml's Document API so comments survive. The engine reads the file at start: changes
 * take effect on the next start.
 */
import { readFile } from "node:fs/promises";
import { isMap, parseDocument } from "yaml";
import { writeAtomically } from "../../config/atomic-write.ts";
import { queuedEdit } from "../../config/file-queue.ts";
import { ProblemError } from "../../host/problem.ts";
import { featuresFile, parseFeaturesLayer, type PluginRuntimeName } from "./features.ts";

export interface FeaturesEdit {
  /** "auto": the host decides (the key is removed). */
  runtime?: PluginRuntimeName | "auto";
  unsafe?: boolean;
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw new Error(`${file}: cannot read: ${(err as Error).message}`, { cause: err });
  }
}

/** What the global file asks for now (invalid fields read as unset, as the loader does). */
export async function readGlobalFeatures(
  globalHome: string,
): Promise<{ runtime: PluginRuntimeName | "auto"; unsafe: boolean; file: string }> {
  const file = featuresFile(globalHome);
  const { layer } = parseFeaturesLayer(await readText(file), file);
  return { runtime: layer.runtime ?? "auto", unsafe: layer.unsafe ?? false, file };
}

export function editGlobalFeatures(globalHome: string, edit: FeaturesEdit): Promise<void> {
  const file = featuresFile(globalHome);
  return queuedEdit(file, () => applyEdit(file, edit));
}

async function applyEdit(file: string, edit: FeaturesEdit): Promise<void> {
  const text = await readText(file);
  const doc = parseDocument(text.trim() === "" ? "plugins: {}\n" : text);
  if (doc.errors.length > 0)
    throw new Error(
      `${file}: invalid YAML (${doc.errors[0].message.split("\n")[0]}); fix it by hand first`,
    );
  if (!isMap(doc.get("plugins")) && doc.get("plugins") !== undefined)
    throw new Error(`${file}: plugins: expected a map of settings; fix it by hand first`);
  if (edit.runtime === "auto") doc.deleteIn(["plugins", "runtime"]);
  else if (edit.runtime) doc.setIn(["plugins", "runtime"], edit.runtime);
  if (edit.unsafe !== undefined) doc.setIn(["plugins", "unsafe"], edit.unsafe);
  const out = doc.toString();
  const { errors } = parseFeaturesLayer(out, file);
  if (errors.length > 0) throw new ProblemError(errors[0]);
  await writeAtomically(file, out);
}
