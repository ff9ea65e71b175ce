/**
 * The SDK as one ambient declaration file (`declare module "@islet/sdk"` and
 * `declare module "@islet/sdk/exec"`): what the plugin editor gives Monaco for IntelliSense and
 * what authors outside this repository can drop next to their plugin.
 */
import { readFileSync } from "node:fs";
import ts from "typescript";

function declarationsOf(file: string): string {
  const source = readFileSync(new URL(file, import.meta.url), "utf8");
  const out = ts.transpileDeclaration(source, {
    fileName: file,
    compilerOptions: {
      target: ts.ScriptTarget.ES2023,
      module: ts.ModuleKind.ESNext,
      allowImportingTsExtensions: true,
    },
  });
  const problems = out.diagnostics ?? [];
  if (problems.length > 0) {
    throw new Error(`${file}: ${ts.flattenDiagnosticMessageText(problems[0].messageText, " ")}`);
  }
  // Inside `declare module` blocks everything is already ambient.
  return out.outputText
    .replace(/^export declare /gm, "export ")
    .replace(/^declare /gm, "")
    .replace(/from "\.\/index\.ts"/g, 'from "@islet/sdk"')
    .replace(/^export \{\};\s*$/gm, "")
    .trim();
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((l) => (l ? `  ${l}` : l))
    .join("\n");
}

const CORE_TYPES = "../../main/core/types.ts";

/** index.ts with the core types it re-exports written in place (a module block cannot import). */
function sdkModule(): string {
  const reexport = new RegExp(
    `^(?:import|export) type \\{[^}]*\\} from "${CORE_TYPES.replace(/[./]/g, "\\$&")}";\\s*$`,
    "gm",
  );
  const index = declarationsOf("./index.ts").replace(reexport, "");
  if (index.includes(CORE_TYPES))
    throw new Error(`plugins/sdk/index.ts: unexpected use of ${CORE_TYPES}`);
  return `${index.trim()}\n\n${declarationsOf(CORE_TYPES)}`;
}

export function sdkDeclarations(): string {
  return [
    "// @islet/sdk — types for Islet plugins. Generated from plugins/sdk/*.ts; do not edit.",
    `declare module "@islet/sdk" {\n${indent(sdkModule())}\n}`,
    `declare module "@islet/sdk/exec" {\n${indent(declarationsOf("./exec.ts"))}\n}`,
    "",
  ].join("\n\n");
}

if (import.meta.main) process.stdout.write(sdkDeclarations());
