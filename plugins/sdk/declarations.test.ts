import assert from "node:assert/strict";
import { test } from "node:test";
import ts from "typescript";
import { sdkDeclarations } from "./declarations.ts";

/** Type-checks `code` as a plugin against the generated declarations only (as Monaco would). */
function diagnostics(code: string): string[] {
  const files: Record<string, string> = { "/sdk.d.ts": sdkDeclarations(), "/plugin.ts": code };
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2023.d.ts"],
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (f) => files[f] ?? read(f);
  host.fileExists = (f) => f in files || ts.sys.fileExists(f);
  const getSource = host.getSourceFile.bind(host);
  host.getSourceFile = (f, lang) =>
    f in files ? ts.createSourceFile(f, files[f], lang) : getSource(f, lang);
  const program = ts.createProgram(["/sdk.d.ts", "/plugin.ts"], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, " "));
}

test("a plugin written against the SDK declarations type-checks", () => {
  const problems = diagnostics(`
    import type { BeforeChatContext, Result, AfterToolContext, ToolSchema, Context } from "@islet/sdk";
    import { fs, RoleUser, version } from "@islet/sdk";
    import { exec } from "@islet/sdk/exec";
    export function beforeChat(ctx: BeforeChatContext): Result | undefined {
      if (ctx.tokens.percent > 80 && ctx.todo.pending > 0) return { message: "wrap up", role: RoleUser, disableTools: ["*"], request: { appendSystem: version } };
      return undefined;
    }
    export async function afterToolExecution(ctx: AfterToolContext): Promise<Result> {
      await fs.appendFile("log.txt", ctx.tool.name + " " + ctx.stats.tools.errors);
      const r = await exec(["git", "status"]);
      return { output: ctx.tool.result + r.stdout };
    }
    export function schema(): ToolSchema { return { name: "X", description: "x", parameters: { type: "object" } }; }
    export function execute(ctx: Context, args: Record<string, unknown>): string { return ctx.agent + String(args.a); }
  `);
  assert.deepEqual(problems, []);
});

test("a wrong field is caught", () => {
  const problems = diagnostics(`
    import type { BeforeChatContext, Result } from "@islet/sdk";
    export function beforeChat(ctx: BeforeChatContext): Result { return { mesage: String(ctx.tokens.percentage) }; }
  `);
  assert.ok(
    problems.some((p) => /percentage/.test(p)),
    problems.join("\n"),
  );
  assert.ok(
    problems.some((p) => /mesage/.test(p)),
    problems.join("\n"),
  );
});
