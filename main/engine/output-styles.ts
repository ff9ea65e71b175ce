/**
 * The engine's output styles: those of the homes (the project's once trusted) and of the enabled
 * Claude Code plugins, and where a session's choice is saved (`/output-style`, the app's picker).
 */
import type { Homes } from "../config/homes.ts";
import type { DeclarativeExtensions } from "../extensions/declarative.ts";
import { OUTPUT_STYLE_KEY, type OutputStyleDeps } from "../extensions/output-styles/command.ts";
import { findOutputStyles } from "../extensions/output-styles/styles.ts";
import type { SessionStore } from "../sessions/store.ts";
import type { WorkspaceTrust } from "../trust/workspace-trust.ts";

/** The parts of the engine its output styles read: at each use, so they may be made later. */
export interface OutputStyleSources {
  readonly homes: Homes;
  readonly declarative: DeclarativeExtensions;
  readonly store: SessionStore;
  readonly trust: WorkspaceTrust;
}

export function engineOutputStyles(engine: OutputStyleSources): OutputStyleDeps {
  return {
    styles: () => {
      const plugins = (engine.declarative.claudePlugins?.plugins ?? [])
        .filter((p) => p.status === "enabled")
        .map((p) => ({ namespace: p.name, files: p.outputStyles.map((s) => s.file) }));
      return findOutputStyles(engine.homes, plugins, { trustedProject: engine.trust.trusted });
    },
    save: (id, name) => {
      if (id) engine.store.append(id, { t: "state", key: OUTPUT_STYLE_KEY, value: name });
    },
  };
}
