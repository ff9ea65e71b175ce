/**
 * Questions the engine asks the person using it (SPEC §6, §9): may this tool call run, may this
 * plugin have what it asks for, is this folder trusted, may this plugin be activated. The host
 * answers them: a dialog in the app (through the bridge), a prompt at a terminal, `--yes` for one
 * non-interactive run, or nobody (every question answered with its safe default).
 *
 * Plain zod and no Node imports: the bridge contract (bundled into the renderer) uses these
 * schemas for the question event and its answer call.
 */
import { z } from "zod";

/** One thing a plugin asks for, as the user reads it. */
export const PermissionItem = z.strictObject({
  /** `override`: its tool replaces any of the same name (pack consent lists it; not a grant). */
  kind: z.enum(["network", "path", "exec", "env", "wasm", "rewrite", "override"]),
  /** The host, path, variable name or (rewrite) tool pattern; "" for exec, wasm and override. */
  target: z.string(),
  write: z.boolean().optional(),
  reason: z.string(),
});
export type PermissionItem = z.infer<typeof PermissionItem>;

/** A permission request and where it stands, as the plugin browser and `islet plugins` show it. */
export const PermissionState = PermissionItem.extend({
  status: z.enum([
    "granted",
    /** Granted for this run only (--yes, "only this time"). */
    "granted-once",
    "denied",
    /** Asked for, not answered yet (or nobody could answer). */
    "pending",
    /** A project plugin in a folder the user has not trusted: not even asked. */
    "held-back",
  ]),
});
export type PermissionState = z.infer<typeof PermissionState>;

/**
 * What a file-changing call (Write, Patch) would do to the file, so a person approves a change
 * they can see: the text on disk now and after. `before` null: a new file (or see `note`);
 * `after` null: the change cannot be worked out (the Patch text is not in the file).
 */
export const FileChange = z.strictObject({
  /** As the tool names it (relative to the working folder when inside it). */
  path: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  /** Why the text on disk is not shown or the result not known. */
  note: z.enum(["binary", "too-large", "unreadable", "not-found-in-file"]).optional(),
  /** The file's size on disk, when it is too large or binary to show. */
  size: z.number().int().nonnegative().optional(),
});
export type FileChange = z.infer<typeof FileChange>;

export const ApprovalQuestion = z.strictObject({
  kind: z.literal("approval"),
  tool: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  workdir: z.string(),
  /** Write and Patch: the file's text now and after the call, for a diff. */
  change: FileChange.optional(),
  /** Plugins that rewrote the model's arguments into these (the person must see who). */
  rewrittenBy: z.array(z.string()).optional(),
  /**
   * Why an earlier "always" no longer holds, one line each: another MCP server answers under the
   * name, or the server rewrote the tool's description or schema (before and after, shortened).
   */
  changed: z.array(z.string()).optional(),
});

export const PermissionsQuestion = z.strictObject({
  kind: z.literal("permissions"),
  plugin: z.string(),
  /** The plugin's folder, so the user can tell two plugins of one name apart. */
  dir: z.string(),
  /** What is asked and not yet granted (only what is new when an earlier grant exists). */
  requested: z.array(PermissionItem),
  /** What an earlier grant already covers (shown for context). */
  granted: z.array(PermissionItem),
});

export const TrustQuestion = z.strictObject({
  kind: z.literal("workspace-trust"),
  folder: z.string(),
  /** One line per thing the project's `.islet/` would widen (unsafe mode, exec, grants…). */
  heldBack: z.array(z.string()),
});

export const ActivationQuestion = z.strictObject({
  kind: z.literal("plugin-activation"),
  plugin: z.string(),
  /** A CLI-tool runner plugin or an `activation: on-demand` code plugin (ActivatableKind). */
  pluginKind: z.enum(["runner", "code"]),
  description: z.string(),
  /** Why the model asks for it (or that the user asked). */
  reason: z.string(),
  /** What the user must read before allowing it, one line each (the plugin's consentDetails). */
  details: z.array(z.string()),
});

/** A runner's health check failed and its `command_install` would fix it (e.g. docker pull). */
export const RunnerInstallQuestion = z.strictObject({
  kind: z.literal("runner-install"),
  plugin: z.string(),
  /** The command line that would run, e.g. `docker pull mcr.microsoft.com/dotnet/sdk:6.0`. */
  command: z.string(),
  /** The check that failed and what it said. */
  reason: z.string(),
});

/** One plugin of a pack being installed or updated, and what it asks for. */
export const PackPluginSummary = z.strictObject({
  name: z.string(),
  description: z.string(),
  /**
   * "islet": plugin.yaml; "claude": a Claude Code plugin (.claude-plugin/plugin.json); "runner":
   * a CLI-tool runner plugin (manifest.json, or plugin.yaml with `runner:`).
   */
  format: z.enum(["islet", "claude", "runner"]),
  /** Install: everything it asks for. Update: only what was not granted before. */
  permissions: z.array(PermissionItem),
});
export type PackPluginSummary = z.infer<typeof PackPluginSummary>;

/** Plugins an installed pack already has under their names: `pack`'s copies go on loading. */
const SameNamedPlugins = z.array(
  z.strictObject({ pack: z.string(), plugins: z.array(z.string()) }),
);

/** `islet plugins add` / the catalog's Install: what would be installed, from where. */
export const PackInstallQuestion = z.strictObject({
  kind: z.literal("pack-install"),
  /** The folder name it installs as (a pack, or a single plugin). */
  pack: z.string(),
  /** The URL without credentials, or the local path. */
  source: z.string(),
  ref: z.string().optional(),
  /** The folder of the repository that is installed; absent: all of it. */
  subpath: z.string().optional(),
  commit: z.string().optional(),
  /** "link": an install link opened Islet and asked for it, not the person's own typing. */
  via: z.literal("link").optional(),
  /** Where it goes: the global home's plugins or this workspace's. */
  scope: z.enum(["global", "project"]),
  plugins: z.array(PackPluginSummary),
  /** Installing a plugin a Claude Code marketplace lists from another repository: the marketplace. */
  listedBy: z.string().optional(),
  /**
   * Its Claude Code plugins an installed pack already has under the same names (marketplaces
   * overlap): that pack's copies go on loading, these do not.
   */
  sameNamed: SameNamedPlugins.optional(),
  /**
   * What the pack's Claude Code marketplace lists from other repositories: not part of this
   * install, each installable as a pack of its own (`source`: where it would be cloned from).
   */
  remote: z
    .array(z.strictObject({ name: z.string(), description: z.string(), source: z.string() }))
    .optional(),
});
export type PackInstallQuestion = z.infer<typeof PackInstallQuestion>;

/** `islet plugins update` / the catalog's Update: what changed, and any new permissions. */
export const PackUpdateQuestion = z.strictObject({
  kind: z.literal("pack-update"),
  pack: z.string(),
  source: z.string(),
  from: z.string(),
  to: z.string(),
  commits: z.array(z.strictObject({ hash: z.string(), subject: z.string(), author: z.string() })),
  files: z.array(
    z.strictObject({
      path: z.string(),
      change: z.enum(["added", "modified", "deleted", "renamed"]),
    }),
  ),
  /** Plugins in the new version; `permissions` holds only what is new (not granted before). */
  plugins: z.array(PackPluginSummary),
  /** Plugins the update brings that the installed version did not have. */
  added: z.array(z.string()),
  /** Plugins the update takes away. */
  removed: z.array(z.string()),
  /** Of those it brings, the ones an installed pack already has: these do not load. */
  sameNamed: SameNamedPlugins.optional(),
});
export type PackUpdateQuestion = z.infer<typeof PackUpdateQuestion>;

export const Question = z.discriminatedUnion("kind", [
  ApprovalQuestion,
  PermissionsQuestion,
  TrustQuestion,
  ActivationQuestion,
  RunnerInstallQuestion,
  PackInstallQuestion,
  PackUpdateQuestion,
]);
export type Question = z.infer<typeof Question>;
export type QuestionKind = Question["kind"];

/**
 * The answers each kind takes. "once" answers hold for this run only and are not recorded;
 * "always"/"never" (approval) and "grant"/"trust" are recorded in the global home.
 */
export const ANSWERS = {
  approval: z.enum(["allow", "deny", "always", "never"]),
  permissions: z.enum(["grant", "once", "deny"]),
  "workspace-trust": z.enum(["trust", "once", "deny"]),
  "plugin-activation": z.enum(["allow", "deny"]),
  "runner-install": z.enum(["install", "cancel"]),
  "pack-install": z.enum(["install", "cancel"]),
  "pack-update": z.enum(["update", "cancel"]),
} as const satisfies Record<QuestionKind, z.ZodType>;

export type AnswerFor<K extends QuestionKind> = z.infer<(typeof ANSWERS)[K]>;
export type QuestionOf<K extends QuestionKind> = Extract<Question, { kind: K }>;

/** What every question gets when nobody can be asked: the safe default. */
export const NOBODY_ANSWERS: { [K in QuestionKind]: AnswerFor<K> } = {
  approval: "deny",
  permissions: "deny",
  "workspace-trust": "deny",
  "plugin-activation": "deny",
  "runner-install": "cancel",
  "pack-install": "cancel",
  "pack-update": "cancel",
};

/** `--yes`: yes to everything for this run, nothing recorded. */
export const YES_ANSWERS: { [K in QuestionKind]: AnswerFor<K> } = {
  approval: "allow",
  permissions: "once",
  "workspace-trust": "once",
  "plugin-activation": "allow",
  "runner-install": "install",
  "pack-install": "install",
  "pack-update": "update",
};

/**
 * The host's side. `signal` aborts when the turn stops or the asking client goes away; the
 * question is then withdrawn and the promise rejects (the engine treats that as the safe default).
 */
export interface QuestionPort {
  ask<K extends QuestionKind>(question: QuestionOf<K>, signal?: AbortSignal): Promise<AnswerFor<K>>;
  /** True for the fixed ports (nobody, `--yes`): no person reads the question. */
  readonly automatic?: boolean;
}

function fixed(answers: { [K in QuestionKind]: AnswerFor<K> }): QuestionPort {
  return {
    ask: async <K extends QuestionKind>(q: QuestionOf<K>) => answers[q.kind as K],
    automatic: true,
  };
}

/** Headless without a terminal and without --yes. */
export const NOBODY: QuestionPort = fixed(NOBODY_ANSWERS);
/** `--yes`. */
export const YES_FOR_THIS_RUN: QuestionPort = fixed(YES_ANSWERS);

/**
 * Asks `port`. `answered` is false when nobody could answer (no port, NOBODY, or the question
 * failed or was withdrawn): the answer is then the safe default, and a host must not remember it
 * as the user's choice.
 */
export async function ask<K extends QuestionKind>(
  port: QuestionPort | undefined,
  question: QuestionOf<K>,
  signal?: AbortSignal,
): Promise<{ answer: AnswerFor<K>; answered: boolean }> {
  const fallback = { answer: NOBODY_ANSWERS[question.kind as K], answered: false };
  if (!port || port === NOBODY) return fallback;
  try {
    return { answer: await port.ask(question, signal), answered: true };
  } catch {
    return fallback;
  }
}
