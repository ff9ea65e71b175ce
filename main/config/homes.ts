/**
 * Configuration homes (SPEC §4): the global home (~/.islet, ISLET_HOME or --home) and the
 * project home (.islet/ in the working directory). Same shape; project settings win.
 */
import { homedir } from "node:os";
import path from "node:path";
import { PROJECT_HOME_NAME } from "./workspace-files.ts";

export interface Homes {
  /** Absolute global home; sessions live only here. */
  global: string;
  /** Absolute project home (may not exist). */
  project: string;
  /** Absolute working directory. */
  workdir: string;
}

export function resolveHomes(opts: {
  home?: string;
  workdir?: string;
  env?: NodeJS.ProcessEnv;
}): Homes {
  const env = opts.env ?? process.env;
  const workdir = path.resolve(opts.workdir ?? process.cwd());
  const global = path.resolve(
    opts.home ?? env.ISLET_HOME ?? path.join(homedir(), PROJECT_HOME_NAME),
  );
  return { global, project: path.join(workdir, PROJECT_HOME_NAME), workdir };
}

/** Both homes, lowest precedence first (global, then project); the project is skipped when it is the global home. */
export function homeLayers(homes: Homes): string[] {
  return homes.project === homes.global ? [homes.global] : [homes.global, homes.project];
}

export function configDir(home: string, ...rest: string[]): string {
  return path.join(home, "config", ...rest);
}

export function sessionsDir(homes: Homes): string {
  return path.join(homes.global, "sessions");
}
