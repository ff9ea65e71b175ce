/**
 * Plugin packs (SPEC §7, seed 000 "Install from git", "Update", "Remove"): the shapes the CLI,
 * the bridge and the app share. A pack is one folder in a home's plugins dir holding one plugin
 * (plugin.yaml at its root) or several (in subfolders), installed from git or copied from a path;
 * a git pack carries `.origin.yaml`.
 */
import { formatProblem, type Problem } from "../host/problem.ts";
import type { PackInstallQuestion, PackUpdateQuestion } from "../host/questions.ts";

export type PackScope = "global" | "project";

/** What `.origin.yaml` records (git packs only). */
export interface PackOrigin {
  /** The clone URL, never with credentials in it. */
  url: string;
  /** Branch or tag asked for; absent = the remote's default branch. */
  ref?: string;
  subpath?: string;
  /** The commit installed. */
  commit: string;
  /** ISO times. */
  installedAt: string;
  updatedAt?: string;
  /**
   * When an update brought each plugin it added (by name): of two same-named Claude Code plugins
   * the copy installed first loads, and a copy an update brings counts from then, not from the
   * pack's install (extensions/claude/same-name.ts).
   */
  addedAt?: Record<string, string>;
  /** npm dependencies were installed (false with --no-vendor). */
  vendored: boolean;
  /** Installed from a Claude Code marketplace's entry: the marketplace's source, and the entry. */
  listedBy?: string;
  claudeEntry?: Record<string, unknown>;
}

/** A plugin a Claude Code marketplace lists from another repository, as a person is shown it. */
export interface RemoteOffer {
  name: string;
  description: string;
  /** Where it would be cloned from, or why it cannot be installed. */
  source: string;
}

export interface InstalledPack {
  /** Folder name under the plugins dir; what `update` and `remove` take. */
  name: string;
  dir: string;
  scope: PackScope;
  /** Absent for a copy of a local path (no update path) and for hand-made folders. */
  origin?: PackOrigin;
  /** Names of the plugins it holds (plugin.yaml or Claude Code plugins). */
  plugins: string[];
  /** Which of them are Claude Code plugins (two marketplaces may carry one under one name). */
  claude?: string[];
  /** What its Claude Code marketplace lists from other repositories (`add --plugin NAME`). */
  remote?: RemoteOffer[];
}

/** Plugins of a pack being installed that an installed pack already has under their names. */
export interface SameNamed {
  /** The installed pack, whose copies go on loading (extensions/claude/same-name.ts). */
  pack: string;
  plugins: string[];
}

/** What `add` installed: the pack, and which of its plugins another pack goes on serving. */
export interface AddedPack extends InstalledPack {
  sameNamed?: SameNamed[];
}

export interface PackAddInput {
  /** Git URL (https, ssh, git://, file://, scp-like), `owner/repo` (GitHub), or a local path. */
  source: string;
  ref?: string;
  subpath?: string;
  name?: string;
  scope: PackScope;
  /** npm dependencies of plugins with a package.json; default true. */
  vendor?: boolean;
  /** "link": an install link asked for it (link.ts checks it again; the consent says so). */
  via?: "link";
  /**
   * A plugin the Claude Code marketplace at `source` lists from another repository: that
   * repository is installed as a pack of its own (remote-entry.ts).
   */
  plugin?: string;
}

export type PackPhase =
  | "resolving"
  | "cloning"
  | "fetching"
  | "validating"
  | "vendoring"
  | "building"
  | "consent"
  | "installing"
  | "removing"
  | "done";

export interface PackProgress {
  phase: PackPhase;
  /** One line for a person, e.g. "Receiving objects 42% (120/284)". */
  message: string;
  /** 0…1 when known. */
  fraction?: number;
}

/** How a host takes part in an operation. */
export interface PackOperationHooks {
  progress?(p: PackProgress): void;
  /** The consent question; true = go ahead. A host without a person must return false. */
  consent(question: PackInstallQuestion | PackUpdateQuestion): Promise<boolean>;
  signal?: AbortSignal;
  /** Update: replace a local copy edited since install. */
  force?: boolean;
  /** Update: install npm dependencies of plugins with a package.json (default true; --no-vendor). */
  vendor?: boolean;
}

export interface PackUpdateOutcome {
  pack: InstalledPack;
  from: string;
  to: string;
  /** False when already up to date (nothing asked, nothing changed). */
  changed: boolean;
  /** Plugins the update added that an installed pack already has: its copies go on loading. */
  sameNamed?: SameNamed[];
}

/** Every failure is one of these, with a one-line message naming what and what to do. */
export class PackError extends Error {
  override name = "PackError";
  /** The problem, when it is about one file (a pack's `.origin.yaml`): a listing reports it whole. */
  readonly problem: Problem | undefined;
  constructor(what: string | Problem) {
    super(typeof what === "string" ? what : formatProblem(what));
    this.problem = typeof what === "string" ? undefined : what;
  }
}
