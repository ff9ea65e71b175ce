/**
 * One kind of extension (code plugins; later shell hooks, Claude Code plugins, MCP config, skills)
 * as the engine drives it: find what is there, contribute it through a registrar, and take it all
 * back on dispose.
 */
import type { Problem } from "../host/problem.ts";
import type { ContributionRegistrar } from "./registrar.ts";

export interface Discovery<Found> {
  /** What would be loaded, in load order. */
  found: Found[];
  /** The files that could not be read as an extension, and why. */
  problems: Problem[];
}

export interface ExtensionSource<Found = unknown> {
  /** Stable name for listings and logs, e.g. "plugins". */
  readonly id: string;
  /** Reads what is on disk without loading or registering anything. */
  discover(): Promise<Discovery<Found>>;
  /** Loads everything and contributes it through `registrar` (which it may scope per item). */
  load(registrar: ContributionRegistrar): Promise<void>;
  /** Unloads everything; every contribution made through the registrar is released. */
  dispose(): Promise<void>;
}
