/**
 * A plugin that stays inactive until someone activates it (SPEC §8, seed 004 "on-demand
 * activation"): a CLI-tool runner plugin (`main/extensions/runners/`), or a code plugin whose
 * plugin.yaml says `activation: on-demand`. The activation registry (this folder) lists every one
 * to the model with its status, asks the user before activating, remembers the answer per
 * workspace, and deactivates (processes stopped) on request and when the session ends.
 */
import type { ContributionRegistrar } from "../../contributions/registrar.ts";
import type { Problem } from "../../host/problem.ts";
import type { RunFiles } from "../../trust/run-files.ts";

export type ActivatableKind = "runner" | "code";

export interface ActivatablePlugin {
  readonly name: string;
  /** What it does, for the model's listing and the consent dialog (one paragraph). */
  readonly description: string;
  readonly kind: ActivatableKind;
  /** Its manifest file (plugin.yaml or manifest.json), for errors and the plugin browser. */
  readonly manifestFile: string;
  /**
   * What the user must read before allowing it, one line each: the command it runs and where
   * (natively, or which container image), every mount and whether it may write, its network.
   */
  readonly consentDetails: readonly string[];
  /**
   * A digest of everything consent covers (command, runner, image, mounts, permissions). An
   * activation recorded for another fingerprint is void: a changed manifest asks again.
   */
  readonly fingerprint: string;
  /**
   * The files its commands run and their digests (part of the fingerprint): recorded with an
   * activation, so a changed one is named when the activation is void.
   */
  readonly runFiles?: RunFiles;
  /**
   * Health check, then contribute its tools/commands/hooks through `registrar` (a scope the
   * registry disposes on deactivation). Rejects with a one-line Error saying what is wrong and
   * what to run (e.g. "docker is not running: start it, or set runner: native").
   */
  activate(registrar: ContributionRegistrar, signal?: AbortSignal): Promise<void>;
  /** Stops every process it started; its contributions are released by the registry. */
  deactivate(): Promise<void>;
}

/** A source of activatable plugins (each rediscovered on reload). */
export interface ActivatableSource {
  readonly id: string;
  discover(): Promise<{
    plugins: ActivatablePlugin[];
    problems: Problem[];
  }>;
}

export type ActivationStatus = "active" | "inactive" | "failed" | "held-back";

/** One plugin as listings show it (the model's fragment, /plugin list, the plugin browser). */
export interface ActivationEntry {
  name: string;
  description: string;
  kind: ActivatableKind;
  manifestFile: string;
  consentDetails: string[];
  status: ActivationStatus;
  /** failed: why (one line); held-back: what to do. */
  reason?: string;
  /** The source it came from (ActivatableSource.id). */
  source: string;
}
