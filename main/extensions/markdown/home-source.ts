/**
 * Custom commands (`config/commands/*.md`), skills (`skills/`) and agents (`config/agents/*.md`)
 * of the global and the project home; the project's are registered last, so they win over the
 * global ones of the same name. A project's are held back while its folder is not trusted
 * (main/trust/): their !`cmd` lines run programs, `allowed-tools` widens a turn, skills and agents
 * steer the model. They are read only to be listed as held back, and serve once it is trusted.
 */
import path from "node:path";
import type { AgentConfig } from "../../agents/definition.ts";
import { loadAgents, unknownFailover } from "../../agents/load.ts";
import { configDir, homeLayers, type Homes } from "../../config/homes.ts";
import type { Contributions } from "../../contributions/contributions.ts";
import type { Disposable } from "../../lifecycle/disposable.ts";
import type { ScopedRegistrar } from "../../contributions/registrar.ts";
import { registerMarkdownCommands } from "./command.ts";
import { loadCommands } from "./commands.ts";
import { registerSkills } from "./skill-command.ts";
import { loadSkills } from "./skills.ts";
import type { Problem } from "../../host/problem.ts";

/** What one home's markdown folders hold, for the plugin browser and the held-back listing. */
export interface HomeMarkdownFolder {
  scope: "global" | "project";
  /** The home (`~/.islet` or the project's `.islet`). */
  home: string;
  /** held-back: an untrusted project's; read and listed, never registered. */
  status: "active" | "held-back";
  commands: string[];
  skills: string[];
  agents: string[];
  errors: Problem[];
  warnings: Problem[];
}

export interface HomeMarkdownOptions {
  homes: Homes;
  /** Read at every load: trusting the folder and loading again brings the project's in. */
  trustedProject(): boolean;
  warn(problem: Problem): void;
}

export class HomeMarkdown {
  /** What the last load found, one entry per home. */
  folders: HomeMarkdownFolder[] = [];
  private readonly contributions: Contributions;
  private readonly opts: HomeMarkdownOptions;
  private registrar: ScopedRegistrar | null = null;
  private agentRegistrations: Disposable[] = [];

  constructor(contributions: Contributions, opts: HomeMarkdownOptions) {
    this.contributions = contributions;
    this.opts = opts;
  }

  /** Reads every home again: what was removed is gone, what was added or edited serves. */
  load(): void {
    this.dispose();
    const { homes, warn } = this.opts;
    const registrar = this.contributions.registrar();
    const agents = new Map<string, AgentConfig>();
    const folders: HomeMarkdownFolder[] = [];
    for (const home of homeLayers(homes)) {
      const scope = home === homes.global ? "global" : "project";
      const heldBack = scope === "project" && !this.opts.trustedProject();
      const commands = loadCommands(configDir(home, "commands"));
      const skills = loadSkills(path.join(home, "skills"));
      const found = loadAgents(configDir(home, "agents"));
      const errors = [...commands.errors, ...skills.errors, ...found.errors];
      const warnings = [...commands.warnings, ...skills.warnings, ...found.warnings];
      folders.push({
        scope,
        home,
        status: heldBack ? "held-back" : "active",
        commands: commands.items.map((c) => c.name),
        skills: skills.items.map((s) => s.name),
        agents: found.items.map((a) => a.name),
        errors,
        warnings,
      });
      if (heldBack) continue;
      for (const problem of [...errors, ...warnings]) warn(problem);
      registerMarkdownCommands(registrar, commands.items, { source: "custom" });
      registerSkills(registrar, skills.items, { source: "custom" });
      for (const agent of found.items) agents.set(agent.name, agent);
    }
    // Later homes override earlier ones; a file named like the built-in default replaces it.
    for (const agent of agents.values())
      this.agentRegistrations.push(this.contributions.agents.add(agent, "config"));
    for (const agent of agents.values())
      for (const next of agent.failover)
        if (!this.contributions.agents.has(next)) warn(unknownFailover(agent, next));
    this.registrar = registrar;
    this.folders = folders;
  }

  /** The held-back folder a command or skill of this name is in; undefined when none. */
  heldBackCommand(name: string): HomeMarkdownFolder | undefined {
    return this.folders.find(
      (f) => f.status === "held-back" && (f.commands.includes(name) || f.skills.includes(name)),
    );
  }

  heldBackAgent(name: string): HomeMarkdownFolder | undefined {
    return this.folders.find((f) => f.status === "held-back" && f.agents.includes(name));
  }

  /** One line for a held-back name: what, why, what to do. */
  heldBackReason(what: string): string {
    return (
      `${what} is held back: ${this.opts.homes.workdir} is not trusted and it comes from its ` +
      ".islet/; trust the folder with `islet trust add` to use it"
    );
  }

  dispose(): void {
    for (const r of this.agentRegistrations.reverse()) r.dispose();
    this.agentRegistrations = [];
    this.registrar?.dispose();
    this.registrar = null;
  }
}
