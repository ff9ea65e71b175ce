/**
 * Monaco, bundled and offline (ENGINEERING.md §6): the editor from node_modules (never a CDN:
 * @monaco-editor/react's default loader would fetch one), its workers as Vite `?worker` chunks
 * from our own origin, and `@islet/sdk`'s types so completion and hover work in plugin code.
 */
import { loader } from "@monaco-editor/react";
import * as monaco from "monaco-editor";
import EditorWorker from "monaco-editor/editor/editor.worker?worker";
import JsonWorker from "monaco-editor/language/json/json.worker?worker";
import TsWorker from "monaco-editor/language/typescript/ts.worker?worker";
import sdkDeclarations from "virtual:islet-sdk-types";
import { defineThemes } from "./monaco-themes.ts";

self.MonacoEnvironment = {
  getWorker(_id: string, label: string) {
    if (label === "typescript" || label === "javascript") return new TsWorker();
    if (label === "json") return new JsonWorker();
    return new EditorWorker();
  },
};

const ts = monaco.typescript;
ts.typescriptDefaults.setCompilerOptions({
  target: ts.ScriptTarget.ES2020,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.NodeJs,
  allowNonTsExtensions: true,
  allowImportingTsExtensions: true,
  noEmit: true,
  strict: true,
});
ts.typescriptDefaults.addExtraLib(
  sdkDeclarations,
  "file:///node_modules/@types/islet__sdk/index.d.ts",
);

defineThemes(monaco);
loader.config({ monaco });

export { monaco };

/** The model URI of a plugin's file: one folder per plugin, so relative imports resolve. */
export function fileUri(plugin: string, file: string): string {
  return `file:///plugins/${encodeURIComponent(plugin)}/${file}`;
}

export function languageOf(file: string): string {
  if (/\.[cm]?tsx?$/.test(file)) return "typescript";
  if (/\.[cm]?jsx?$/.test(file)) return "javascript";
  if (/\.ya?ml$/.test(file)) return "yaml";
  if (file.endsWith(".json")) return "json";
  if (file.endsWith(".md")) return "markdown";
  return "plaintext";
}
