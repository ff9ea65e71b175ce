/**
 * The user's shell hooks: `config/hooks/*.yaml|yml|json` in the global home and, once the folder
 * is trusted, in the project home (a project's hooks run commands, so an untrusted folder's are
 * held back, as its plugins' rights are: main/trust/). Contributed as one hook provider at
 * HOOK_SOURCE_ORDER.shellHooks.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Context } from "../../../plugins/sdk/index.ts";
import { configDir, type Homes } from "../../config/homes.ts";
import { HOOK_SOURCE_ORDER } from "../../contributions/hook-sources.ts";
import type { ContributionRegistrar } from "../../contributions/registrar.ts";
import type { Discovery, ExtensionSource } from "../../contributions/source.ts";
import { hookProblem, parseHooksFile, type ShellHookSpec } from "./config.ts";
import { UNWIRED_EVENTS } from "./event-input.ts";
import { ShellHookRegistry } from "./registry.ts";
import type { PermissionAnswer } from "../permission-request.ts";
import type { Problem, ProblemSink } from "../../host/problem.ts";

export interface ShellHookFile {
  file: string;
  scope: "global" | "project";
  hooks: ShellHookSpec[];
  errors: Problem[];
  warnings: Problem[];
}

const HOOK_FILE = /\.(ya?ml|json)$/;

/** Reads one folder of hook files (missing folder: none), sorted by name. */
export async function readHookFolder(
  dir: string,
  scope: ShellHookFile["scope"],
): Promise<ShellHookFile[]> {
  const names = (await readdir(dir).catch(() => [] as string[]))
    .filter((n) => HOOK_FILE.test(n) && !n.startsWith("."))
    .sort();
  const out: ShellHookFile[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (err) {
      out.push({
        file,
        scope,
        hooks: [],
        errors: [
          hookProblem(file, `cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`),
        ],
        warnings: [],
      });
      continue;
    }
    out.push({ file, scope, ...parseHooksFile(file, text) });
  }
  return out;
}

/** Hooks for events Islet does not fire yet: said once, so they never fail silently. */
export function unwiredWarnings(
  at: { source: string; file?: string },
  hooks: readonly ShellHookSpec[],
): Problem[] {
  const events = [...new Set(hooks.map((h) => h.event).filter((e) => UNWIRED_EVENTS.includes(e)))];
  return events.map((e) => ({
    ...at,
    title: `${e} hooks are read but Islet does not fire ${e} yet`,
  }));
}

export class ShellHookSource implements ExtensionSource<ShellHookFile> {
  readonly id = "shell-hooks";
  private readonly homes: Homes;
  /** Read at each load (a folder trusted while the engine runs counts at the next). */
  private readonly opts: { trustedProject: boolean };
  private readonly warn: ProblemSink;
  private registry: ShellHookRegistry | null = null;
  /** What the last load read (the plugin browser lists it). */
  files: ShellHookFile[] = [];

  constructor(opts: { homes: Homes; trustedProject: boolean; warn(problem: Problem): void }) {
    this.homes = opts.homes;
    this.opts = opts;
    this.warn = opts.warn;
  }

  async discover(): Promise<Discovery<ShellHookFile>> {
    const found = await readHookFolder(configDir(this.homes.global, "hooks"), "global");
    if (this.opts.trustedProject && this.homes.project !== this.homes.global)
      found.push(...(await readHookFolder(configDir(this.homes.project, "hooks"), "project")));
    return { found, problems: found.flatMap((f) => f.errors) };
  }

  async load(registrar: ContributionRegistrar): Promise<void> {
    const { found } = await this.discover();
    for (const f of found)
      f.warnings.push(...unwiredWarnings({ source: "shell-hooks", file: f.file }, f.hooks));
    this.files = found;
    const registry = new ShellHookRegistry({
      hooks: found.flatMap((f) =>
        f.hooks.map((spec) => ({
          spec,
          // Only your own files in the global home may approve a tool call for you.
          origin: { label: path.basename(f.file), mayApprove: f.scope === "global" },
        })),
      ),
      globalHome: this.homes.global,
    });
    for (const f of found) for (const problem of [...f.errors, ...f.warnings]) this.warn(problem);
    for (const problem of registry.problems) this.warn(problem);
    this.registry = registry;
    registrar.hooks(registry, HOOK_SOURCE_ORDER.shellHooks);
  }

  /** SessionEnd for a closed conversation; its failures. */
  async sessionEnd(ctx: Context, reason: string): Promise<Problem[]> {
    return (await this.registry?.sessionEnd(ctx, reason)) ?? [];
  }

  /** SubagentStart hooks: their failures, and the context they add. */
  async subagentStart(
    session: { id: string; workdir: string },
    agent: string,
  ): Promise<{ failures: Problem[]; contexts: string[] }> {
    return (
      (await this.registry?.outside.subagentStart(session, agent)) ?? { failures: [], contexts: [] }
    );
  }

  /** SubagentStop hooks: their failures, and the reasons to keep the sub-agent going. */
  async subagentStop(
    session: { id: string; workdir: string },
    agent: string,
    active: boolean,
    answer: string,
  ): Promise<{ failures: Problem[]; reasons: string[] }> {
    return (
      (await this.registry?.outside.subagentStop(session, agent, active, answer)) ?? {
        failures: [],
        reasons: [],
      }
    );
  }

  /** UserPromptExpansion hooks: their failures, reasons to block, and context. */
  async userPromptExpansion(
    session: { id: string; workdir: string },
    expansion: { name: string; args: string; source: string; prompt: string },
  ): Promise<{ failures: Problem[]; reasons: string[]; contexts: string[] }> {
    return (
      (await this.registry?.outside.userPromptExpansion(session, expansion)) ?? {
        failures: [],
        reasons: [],
        contexts: [],
      }
    );
  }

  /** PermissionRequest hooks: their failures and answers. */
  async permissionRequest(
    session: { id: string; workdir: string },
    tool: string,
    args: Record<string, unknown>,
  ): Promise<{ failures: Problem[]; answers: PermissionAnswer[] }> {
    return (
      (await this.registry?.outside.permissionRequest(session, tool, args)) ?? {
        failures: [],
        answers: [],
      }
    );
  }

  /** Notification hooks (Islet waits for the person); their failures. */
  async notification(
    session: { id: string; workdir: string },
    message: string,
    type: string,
  ): Promise<Problem[]> {
    return (await this.registry?.outside.notification(session, message, type)) ?? [];
  }

  /** The session's last hook commands still running (ShellHookRegistry.stillClosing). */
  stillClosing(): { hook: string; ended: Promise<unknown> }[] {
    return this.registry?.stillClosing() ?? [];
  }

  async dispose(): Promise<void> {
    this.registry?.dispose();
    this.registry = null;
  }
}
