/**
 * Custom commands: Markdown files (Claude Code's `commands/*.md`, Islet's `config/commands/*.md`)
 * whose body is the prompt. Reusable by any source: the homes, Claude Code plugins.
 */
import path from "node:path";
import { z } from "zod";
import {
  fileProblem,
  hintText,
  looseText,
  readMarkdownFile,
  toolList,
  type Loaded,
} from "../../config/frontmatter-fields.ts";
import type { Problem } from "../../host/problem.ts";
import { indexedParse } from "../../config/markdown-index.ts";
import { markdownFiles } from "../../config/markdown-walk.ts";
import { positionalHintProblem } from "./expand.ts";

export interface MarkdownCommand {
  /** What the user types after "/": "review", or "myplugin:review" with a namespace. */
  name: string;
  /** The bare name when namespaced (the alias that works while no other command has it). */
  bareName: string;
  namespace?: string;
  description: string;
  argumentHint?: string;
  /** Tools the turn it starts may use (Claude's `allowed-tools`); unset = the agent's. */
  allowedTools?: string[];
  model?: string;
  /** False: the expanded text is shown to the user, not sent (Islet's `forward: false`). */
  forward: boolean;
  body: string;
  file: string;
  /** Sub-folder, shown as a label only ("frontend"). */
  label: string;
}

export const COMMAND_FIELDS = {
  description: looseText.optional(),
  "argument-hint": hintText.optional(),
  hints: hintText.optional(),
  "allowed-tools": toolList.optional(),
  model: z.string().min(1).optional(),
  "disable-model-invocation": z.boolean().optional(),
  forward: z.boolean().optional(),
  name: looseText.optional(),
  // Claude Code's, read so they are not reported as unknown; they change nothing in Islet.
  "hide-from-slash-command-tool": z.unknown().optional(),
  effort: z.unknown().optional(),
};

export interface LoadOptions {
  /** A plugin's name: commands are `/namespace:name`. */
  namespace?: string;
}

/** The first non-empty line of the body, the default description (as Claude Code does). */
export function firstLine(body: string): string {
  const line = body.split("\n").find((l) => l.trim() !== "") ?? "";
  return line
    .replace(/^#+\s*/, "")
    .trim()
    .slice(0, 120);
}

export function parseCommandFile(
  file: string,
  text: string,
  opts: LoadOptions & { label?: string } = {},
): { command: MarkdownCommand; warnings: Problem[] } {
  const { data, body, warnings } = readMarkdownFile(file, text, COMMAND_FIELDS);
  const bareName = path.basename(file).replace(/\.md$/i, "");
  const prompt = body.trim();
  const hint = data["argument-hint"] ?? data.hints;
  const positional = positionalHintProblem(file, prompt, hint);
  if (positional) warnings.push(positional);
  return {
    command: {
      name: opts.namespace ? `${opts.namespace}:${bareName}` : bareName,
      bareName,
      namespace: opts.namespace,
      description: data.description ?? firstLine(prompt),
      argumentHint: hint,
      allowedTools: data["allowed-tools"],
      model: data.model,
      forward: data.forward ?? true,
      body: prompt,
      file,
      label: opts.label ?? "",
    },
    warnings,
  };
}

/** One command file, from the markdown index when unchanged since it was parsed (body read on use). */
export function readCommandFile(
  file: string,
  opts: LoadOptions & { label?: string } = {},
): { command: MarkdownCommand; warnings: Problem[] } {
  const variant = `${opts.namespace ?? ""}\0${opts.label ?? ""}`;
  const { item, warnings } = indexedParse<MarkdownCommand>(
    "command",
    file,
    variant,
    "body",
    (text) => {
      const parsed = parseCommandFile(file, text, opts);
      return { item: parsed.command, warnings: parsed.warnings };
    },
  );
  return { command: item, warnings };
}

/** Every `*.md` under `dir` (sub-folders too); broken files are reported and skipped. */
export function loadCommands(dir: string, opts: LoadOptions = {}): Loaded<MarkdownCommand> {
  const out: Loaded<MarkdownCommand> = { items: [], errors: [], warnings: [] };
  for (const { file, folder } of markdownFiles(dir)) {
    try {
      const { command, warnings } = readCommandFile(file, { ...opts, label: folder });
      out.items.push(command);
      out.warnings.push(...warnings);
    } catch (err) {
      out.errors.push(fileProblem(err, file));
    }
  }
  return out;
}
