/**
 * tool-logger: one line per tool call (before it runs, with its arguments) and one per result
 * (ok or error, with the duration and the output), appended to a log file in the plugin's data
 * folder (a relative `path` is under it; an absolute one needs a permissions.paths grant).
 * Each line: ISO time, the session id's first 8 characters, then what happened. Newlines inside
 * results are written as \n so every event stays on one line.
 */
import { fs } from "@islet/sdk";
import type { AfterToolContext, BeforeToolContext, Context } from "@islet/sdk";

const DEFAULT_PATH = "tool-calls.log";

function logPath(ctx: Context): string {
  const value = ctx.pluginConfig.path;
  const file = typeof value === "string" && value.trim() !== "" ? value : DEFAULT_PATH;
  return file.startsWith("/") || file.startsWith("~") ? file : `${fs.dataDir}/${file}`;
}

function maxChars(ctx: Context): number {
  const value = ctx.pluginConfig.max_result_chars;
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : 500;
}

function oneLine(text: string, max: number): string {
  const cut = max > 0 && text.length > max ? `${text.slice(0, max)}… [${text.length} chars]` : text;
  return cut.replace(/\\/g, "\\\\").replace(/\r?\n/g, "\\n");
}

async function log(ctx: Context, event: string): Promise<void> {
  const session = ctx.session.id.slice(0, 8) || "-";
  await fs.appendFile(logPath(ctx), `${new Date().toISOString()} ${session} ${event}\n`);
}

export async function beforeToolExecution(ctx: BeforeToolContext): Promise<undefined> {
  await log(ctx, `call ${ctx.toolName} ${JSON.stringify(ctx.arguments)}`);
  return undefined;
}

export async function afterToolExecution(ctx: AfterToolContext): Promise<undefined> {
  const { name, result, error, duration } = ctx.tool;
  const status = error !== "" ? "error" : "ok";
  const output = oneLine(error !== "" ? error : result, maxChars(ctx));
  await log(ctx, `${status} ${name} ${Math.round(duration)}ms: ${output}`);
  return undefined;
}
