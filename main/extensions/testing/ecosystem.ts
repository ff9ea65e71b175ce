/**
 * A generated plugin ecosystem in the shapes of the real marketplaces, for tests and the
 * `ecosystem` benchmark: Claude Code plugins (with plugin.json, or manifest-less folders a
 * marketplace lists, as wshobson/agents ships them), their commands, skills, agents, hooks and MCP
 * servers, and some Islet code plugins, all under `<home>/plugins/` where the engine finds them.
 * Deterministic for a seed: the same seed writes the same bytes.
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  ALLOWED_TOOLS,
  CATEGORIES,
  DOMAINS,
  MODELS,
  OBJECTS,
  QUALITIES,
  ROLES,
  TOOL_SETS,
  VERBS,
} from "./vocabulary.ts";
import { seededRandom } from "../../core/seeded-random.ts";
import { cap, Names, q, Words } from "./words.ts";

export interface EcosystemOptions {
  /** Plugins in all (Claude Code and code plugins); default 300. */
  plugins?: number;
  /** Default 1. */
  seed?: number;
  /** Every Nth plugin is an Islet code plugin (default 10; 0: none). */
  codeEvery?: number;
  /** Every Nth Claude plugin declares an MCP server (a tiny stdio one; default 30; 0: none). */
  mcpEvery?: number;
}

export interface EcosystemSummary {
  /** `<home>/plugins`. */
  pluginsDir: string;
  /** Plugin names, Claude Code and code plugins, sorted. */
  names: string[];
  claudePlugins: string[];
  codePlugins: string[];
  /** Code plugins with `activation: on-demand` (not loaded until activated). */
  onDemandPlugins: string[];
  marketplaces: string[];
  commands: number;
  skills: number;
  agents: number;
  /** Plugins with hooks/hooks.json. */
  hookPlugins: number;
  mcpServers: number;
  /** One generated skill and a prompt a lexical ranker should match to it. */
  knownSkill: { plugin: string; name: string; description: string; prompt: string };
}

interface Files {
  [rel: string]: string;
}

/** The tiny MCP server each MCP-declaring plugin ships (dependency-free, as a plugin's own is). */
const MCP_SERVER = `const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\\n");
let buf = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (c) => {
  buf += c;
  let nl;
  while ((nl = buf.indexOf("\\n")) >= 0) {
    const line = buf.slice(0, nl).trim();
    buf = buf.slice(nl + 1);
    if (!line) continue;
    const req = JSON.parse(line);
    if (req.id === undefined) continue;
    if (req.method === "initialize")
      send({ id: req.id, result: { protocolVersion: req.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "gen", version: "1.0.0" } } });
    else if (req.method === "tools/list")
      send({ id: req.id, result: { tools: [{ name: "lookup", description: process.env.GEN_TOOL_DESCRIPTION, inputSchema: { type: "object", properties: { topic: { type: "string" } } } }] } });
    else if (req.method === "tools/call")
      send({ id: req.id, result: { content: [{ type: "text", text: "ok" }] } });
    else send({ id: req.id, result: {} });
  }
});
`;

/** Writes the ecosystem under `<home>/plugins/` and says what it holds. */
export function writeEcosystem(home: string, opts: EcosystemOptions = {}): EcosystemSummary {
  const total = opts.plugins ?? 300;
  const codeEvery = opts.codeEvery ?? 10;
  const mcpEvery = opts.mcpEvery ?? 30;
  const w = new Words(seededRandom(opts.seed ?? 1));
  const pluginsDir = path.join(home, "plugins");
  const files: Files = {};
  const executables: string[] = [];
  const pluginNames = new Names();
  const skillNames = new Names();
  const summary: EcosystemSummary = {
    pluginsDir,
    names: [],
    claudePlugins: [],
    codePlugins: [],
    onDemandPlugins: [],
    marketplaces: [],
    commands: 0,
    skills: 0,
    agents: 0,
    hookPlugins: 0,
    mcpServers: 0,
    knownSkill: { plugin: "", name: "", description: "", prompt: "" },
  };
  // Three homes for Claude plugins, as installed packs hold them: a marketplace of manifest-less
  // plugins (wshobson/agents), a marketplace whose plugins have plugin.json (anthropics'), and
  // plugins installed one by one.
  const markets = {
    agents: { dir: "gen-agents", entries: [] as Record<string, unknown>[] },
    official: { dir: "gen-official", entries: [] as Record<string, unknown>[] },
  };
  let claudeIndex = 0;
  for (let i = 0; i < total; i++) {
    const domain = w.pick(DOMAINS);
    if (codeEvery > 0 && i % codeEvery === codeEvery - 1) {
      const name = pluginNames.take(`${domain}-${w.pick(VERBS).replace(/e$/, "")}er`);
      const onDemand = summary.codePlugins.length % 3 === 2;
      writeCodePlugin(files, w, name, domain, onDemand);
      summary.codePlugins.push(name);
      if (onDemand) summary.onDemandPlugins.push(name);
      continue;
    }
    const name = pluginNames.take(
      `${domain}-${w.pick(["toolkit", "kit", "ops", "dev", "pro", "assist", "suite"])}`,
    );
    const kind = claudeIndex % 5 < 2 ? "agents" : claudeIndex % 5 < 3 ? "official" : "single";
    const rel = kind === "single" ? name : path.join(markets[kind].dir, "plugins", name);
    const description = w.prose(domain, 80, 160);
    const plugin = writeClaudePlugin(files, w, rel, name, domain, skillNames, {
      manifest: kind !== "agents",
      description,
      mcp: mcpEvery > 0 && claudeIndex % mcpEvery === mcpEvery - 1,
      hooks: claudeIndex % 12 === 5,
    });
    if (plugin.hooks) executables.push(path.join(rel, "hooks", "check.sh"));
    summary.commands += plugin.commands.length;
    summary.skills += plugin.skills.length;
    summary.agents += plugin.agents;
    summary.hookPlugins += plugin.hooks ? 1 : 0;
    summary.mcpServers += plugin.mcp ? 1 : 0;
    if (!summary.knownSkill.name && plugin.skills.length > 0 && claudeIndex >= 7) {
      const s = plugin.skills[0]!;
      summary.knownSkill = {
        plugin: name,
        name: s.name,
        description: s.description,
        prompt: `Please ${s.verb} the ${s.object} of our ${s.domain} service`,
      };
    }
    if (kind !== "single") {
      const entry: Record<string, unknown> = {
        name,
        source: `./plugins/${name}`,
        description,
        version: `1.${w.int(0, 9)}.${w.int(0, 20)}`,
        category: w.pick(CATEGORIES),
        keywords: [domain, w.pick(VERBS), w.pick(OBJECTS)],
      };
      // wshobson/agents' entries say strict: false and list the parts themselves.
      if (kind === "agents") {
        entry.strict = false;
        entry.commands = plugin.commands.map((c) => `./commands/${c}.md`);
      }
      markets[kind].entries.push(entry);
    }
    summary.claudePlugins.push(name);
    claudeIndex++;
  }
  for (const [key, market] of Object.entries(markets)) {
    if (market.entries.length === 0) continue;
    files[path.join(market.dir, ".claude-plugin", "marketplace.json")] = JSON.stringify(
      {
        name: market.dir,
        owner: { name: `Generated ${key}` },
        metadata: { description: `Generated ${key} marketplace`, version: "1.0.0" },
        plugins: market.entries,
      },
      null,
      2,
    );
    summary.marketplaces.push(market.dir);
  }
  for (const [rel, text] of Object.entries(files)) {
    const full = path.join(pluginsDir, rel);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  for (const rel of executables) chmodSync(path.join(pluginsDir, rel), 0o755);
  summary.names = [...summary.claudePlugins, ...summary.codePlugins].sort();
  summary.claudePlugins.sort();
  summary.codePlugins.sort();
  return summary;
}

interface SkillInfo {
  name: string;
  description: string;
  verb: string;
  object: string;
  domain: string;
}

interface ClaudeWritten {
  commands: string[];
  skills: SkillInfo[];
  agents: number;
  hooks: boolean;
  mcp: boolean;
}

function writeClaudePlugin(
  files: Files,
  w: Words,
  rel: string,
  name: string,
  domain: string,
  skillNames: Names,
  opts: { manifest: boolean; description: string; mcp: boolean; hooks: boolean },
): ClaudeWritten {
  const out: ClaudeWritten = {
    commands: [],
    skills: [],
    agents: 0,
    hooks: opts.hooks,
    mcp: opts.mcp,
  };
  const at = (...p: string[]): string => path.join(rel, ...p);
  if (opts.manifest)
    files[at(".claude-plugin", "plugin.json")] = JSON.stringify(
      {
        name,
        version: `${w.int(0, 3)}.${w.int(0, 9)}.0`,
        description: opts.description,
        author: { name: `${cap(domain)} maintainers` },
        license: "MIT",
        keywords: [domain, w.pick(OBJECTS)],
      },
      null,
      2,
    );
  files[at("README.md")] = `# ${name}\n\n${opts.description}\n`;
  // Counts like the real ones: about one command, two agents and two skills per plugin.
  for (let c = w.int(0, 3); c > 0; c--) {
    const verb = w.pick(VERBS);
    const object = w.pick(OBJECTS);
    const cmd = `${verb}-${object}`;
    if (out.commands.includes(cmd)) continue;
    out.commands.push(cmd);
    files[at("commands", `${cmd}.md`)] = [
      "---",
      `description: ${q(`${cap(verb)} ${domain} ${object}, ${w.pick(QUALITIES)} and ${w.pick(QUALITIES)}`)}`,
      `argument-hint: ${q(`[${w.pick(OBJECTS)}] [--${w.pick(QUALITIES)}]`)}`,
      `allowed-tools: ${w.pick(ALLOWED_TOOLS)}`,
      "---",
      "",
      `${cap(verb)} the ${object} of this ${domain} project. Focus on: $ARGUMENTS`,
      "",
      w.prose(domain, 400, 900),
      "",
    ].join("\n");
  }
  for (let a = w.int(0, 4); a > 0; a--) {
    const role = w.pick(ROLES);
    const agent = `${domain}-${w.pick(OBJECTS)}-${role}`;
    const file = at("agents", `${agent}.md`);
    if (files[file]) continue;
    out.agents++;
    files[file] = [
      "---",
      `name: ${agent}`,
      `description: ${q(`${cap(role)} for ${domain}. ${w.prose(domain, 260, 340)} Use PROACTIVELY for ${w.pick(VERBS)} work.`)}`,
      `tools: ${w.pick(TOOL_SETS)}`,
      `model: ${w.pick(MODELS)}`,
      "---",
      "",
      `You are a ${domain} ${role}.`,
      "",
      w.prose(domain, 1500, 3000),
      "",
    ].join("\n");
  }
  for (let s = w.int(0, 4); s > 0; s--) {
    const verb = w.pick(VERBS);
    const object = w.pick(OBJECTS);
    const skill = skillNames.take(`${domain}-${object}-${verb}`);
    const description = `${cap(verb)} ${object} for ${domain}: ${w.prose(domain, 170, 260)}`;
    out.skills.push({ name: skill, description, verb, object, domain });
    const lines = ["---", `name: ${skill}`, `description: ${q(description)}`];
    if (w.chance(0.3))
      lines.push(`when_to_use: ${q(`When the user asks to ${verb} ${domain} ${object}`)}`);
    lines.push(
      "---",
      "",
      `# ${cap(verb)} ${domain} ${object}`,
      "",
      w.prose(domain, 1200, 4000),
      "",
    );
    files[at("skills", skill, "SKILL.md")] = lines.join("\n");
  }
  if (opts.hooks) {
    files[at("hooks", "check.sh")] = "#!/bin/sh\nexit 0\n";
    // Events a plain turn does not fire, as most plugins' hooks are (a matcher on one tool).
    files[at("hooks", "hooks.json")] = JSON.stringify(
      {
        description: `Checks ${domain} edits`,
        hooks: {
          PreToolUse: [
            {
              matcher: "NotebookEdit",
              hooks: [{ type: "command", command: '"${CLAUDE_PLUGIN_ROOT}/hooks/check.sh"' }],
            },
          ],
          PostToolUse: [
            {
              matcher: "mcp__never__.*",
              hooks: [{ type: "command", command: '"${CLAUDE_PLUGIN_ROOT}/hooks/check.sh"' }],
            },
          ],
          PreCompact: [{ hooks: [{ type: "command", command: "true" }] }],
        },
      },
      null,
      2,
    );
  }
  if (opts.mcp) {
    files[at("servers", "gen.js")] = MCP_SERVER;
    files[at(".mcp.json")] = JSON.stringify(
      {
        mcpServers: {
          [`${name}-server`]: {
            command: "node",
            args: ["${CLAUDE_PLUGIN_ROOT}/servers/gen.js"],
            env: { GEN_TOOL_DESCRIPTION: `Looks up ${domain} ${w.pick(OBJECTS)}` },
          },
        },
      },
      null,
      2,
    );
  }
  return out;
}

function writeCodePlugin(
  files: Files,
  w: Words,
  name: string,
  domain: string,
  onDemand: boolean,
): void {
  const verb = w.pick(VERBS);
  const object = w.pick(OBJECTS);
  const yaml = [
    `description: ${q(`${cap(verb)}s ${domain} ${object}. ${w.prose(domain, 60, 140)}`)}`,
  ];
  if (onDemand) yaml.push("activation: on-demand");
  files[path.join(name, "plugin.yaml")] = yaml.join("\n") + "\n";
  const command = name.replace(/[^a-z0-9-]/g, "");
  // Half hook into every turn (cheaply), the others add a command.
  const body = w.chance(0.5)
    ? [
        'import type { BeforeChatContext, Result } from "@islet/sdk";',
        "let turns = 0;",
        "export function beforeChat(_ctx: BeforeChatContext): Result | undefined {",
        "  turns += 1;",
        "  return undefined;",
        "}",
      ]
    : [
        'import type { CommandResult, CommandSchema } from "@islet/sdk";',
        "export function command(): CommandSchema {",
        `  return { name: ${q(command)}, description: ${q(`${cap(verb)} ${domain} ${object}`)}, hints: ["${object}"] };`,
        "}",
        "export function executeCommand(args: string): CommandResult {",
        `  return { output: ${q(`${verb} ${object}: `)} + args };`,
        "}",
      ];
  files[path.join(name, "index.ts")] = body.join("\n") + "\n";
}
