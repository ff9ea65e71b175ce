/**
 * Every subcommand's own help, from one table: `islet CMD --help`, `islet help CMD` and the
 * overview (`islet --help`) all read it, and asking for help never runs the command.
 */
import { PROVIDER_KINDS } from "../core/provider-kinds.ts";
import { SANDBOX_BACKEND_CHOICES } from "../core/sandbox-backends.ts";

interface CommandHelp {
  /** One line per form, without the leading `islet `. */
  usage: string[];
  /** What it does, a sentence or two. */
  about: string;
  /** Its own options (the groups below follow). */
  options?: [string, string][];
  /** Option groups it also takes. */
  groups?: (keyof typeof GROUPS)[];
  example: string;
}

const GROUPS = {
  common: [
    ["--home DIR", "global home (default ~/.islet, or ISLET_HOME)"],
    ["--workdir DIR", "working directory; its .islet/ is the project home (default: current dir)"],
    ["--env-file FILE", "KEY=VALUE file with API keys (default: secrets.env in the workdir)"],
    ["-h, --help", "this help"],
  ],
  model: [
    ["--provider NAME", `provider from providers.yaml, or a kind: ${PROVIDER_KINDS.join(", ")}`],
    ["--model NAME", "model name"],
    ["--base-url URL", "provider base URL"],
    ["--agent NAME", "agent from config/agents/*.md (default: default)"],
    ["--set KEY=VALUE", "template variable for plugins (repeatable)"],
  ],
  plugins: [
    ["--without-plugins", "load no plugins"],
    ["--unsafe-plugins", "allow plugins to run processes"],
    ["--plugin-runtime R", `sandbox for plugins: ${SANDBOX_BACKEND_CHOICES}`],
  ],
} satisfies Record<string, [string, string][]>;

const JSON_OPTION: [string, string] = ["--json", "print JSON instead of text"];

export const COMMANDS = {
  run: {
    usage: ["run [options] PROMPT...", "run [options] /COMMAND [ARGS...]", "run [options] < FILE"],
    about:
      "Runs the agent on a prompt until it answers, asking before tools that change things. " +
      "A prompt starting with / runs that command. Without PROMPT the prompt is read from stdin.",
    options: [
      ["--session ID", "resume a saved session (a unique id prefix is enough)"],
      ["--max-steps N", "stop after N model steps"],
      ["-y, --yes", "yes to every question of this run (nothing is remembered)"],
      ["--json", "print one JSON event per line"],
    ],
    groups: ["model", "plugins", "common"],
    example: 'islet run --model qwen3-4b "What does this repository do?"',
  },
  serve: {
    usage: ["serve [--port N] [--open] [options]"],
    about:
      "Serves the app's UI to a browser on 127.0.0.1 until Ctrl-C; the printed URL carries the " +
      "access token. With --yes it trusts the folder and grants plugin permissions for this run; " +
      "tool calls are asked in the page.",
    options: [
      ["--port N", "port on 127.0.0.1 (default: a free one)"],
      ["--open", "open the URL in the browser ($BROWSER, else the system's)"],
      ["-y, --yes", "trust the folder and grant plugin permissions for this run"],
    ],
    groups: ["model", "plugins", "common"],
    example: "islet serve --port 8080 --open",
  },
  tools: {
    usage: ["tools", "tools NAME", "tools NAME KEY=VALUE... | tools NAME '{JSON}'"],
    about:
      "Lists the tools the agent can use, shows one's input schema, or runs one with the given " +
      "arguments (without hooks; asks like a run would).",
    options: [["-y, --yes", "yes to every question"]],
    groups: ["plugins", "common"],
    example: "islet tools Read path=README.md",
  },
  sessions: {
    usage: [
      "sessions [list] [--json]",
      "sessions show ID [--json]",
      "sessions export ID [--format md|json] [--output FILE]",
      "sessions rename ID TITLE",
      "sessions delete ID",
    ],
    about:
      "Saved conversations: list, show, export, rename or delete one (a unique id prefix is enough).",
    options: [
      JSON_OPTION,
      ["--format md|json", "export format (default md)"],
      ["-o, --output FILE", "write the export to FILE instead of stdout"],
    ],
    groups: ["common"],
    example: "islet sessions export 3f2a --format md -o chat.md",
  },
  models: {
    usage: ["models [list] [--json]", "models pull NAME|URL", "models rm NAME"],
    about:
      "Models for the embedded runtime (downloaded and in the catalog), local servers found " +
      "running, and configured providers; pull downloads one (resuming), rm deletes one.",
    options: [JSON_OPTION],
    groups: ["common"],
    example: "islet models pull qwen3-4b",
  },
  mcp: {
    usage: ["mcp [list] [--json]"],
    about: "MCP servers: where each is declared, its status and its tools (starts them to ask).",
    options: [JSON_OPTION, ["-y, --yes", "yes to every question"]],
    groups: ["plugins", "common"],
    example: "islet mcp list --json",
  },
  plugins: {
    usage: [
      "plugins [list] [--json]",
      "plugins show NAME [--json]",
      "plugins permissions NAME [--reset]",
      "plugins add SOURCE [--ref R] [--subpath P] [--name N] [--global] [--no-vendor] [--yes]",
      "plugins add MARKETPLACE --plugin NAME [--name N] [--global] [--no-vendor] [--yes]",
      "plugins update NAME|--all [--no-vendor] [--force] [--yes]",
      "plugins remove NAME",
      "plugins search [TERM] [--tag T] [--refresh] [--json]",
    ],
    about:
      "Installed plugins (hooks, tools, commands, problems) and plugin packs: install from a " +
      "git URL, owner/repo or a folder (Claude Code marketplaces too), update, remove, search " +
      "the catalogs. Installing shows what the pack can do and asks first.",
    options: [
      JSON_OPTION,
      ["--reset", "permissions: forget what was granted"],
      ["--ref R", "add: a branch, tag or commit"],
      ["--subpath P", "add: the pack's folder inside the repository"],
      ["--name N", "add: install under this name"],
      [
        "--plugin NAME",
        "add: the plugin a Claude Code marketplace (a source, or an installed pack's name) lists from another repository, installed as its own pack",
      ],
      ["--global", "add: for every folder (default: this folder's .islet/)"],
      ["--no-vendor", "add, update: do not install the pack's npm dependencies"],
      ["--force", "update: even when the pack has local changes"],
      ["--all", "update: every pack"],
      ["--tag T", "search: packs with this tag"],
      ["--refresh", "search: fetch the catalogs again"],
      ["-y, --yes", "yes to the install or update question"],
    ],
    groups: ["plugins", "common"],
    example: "islet plugins add anthropics/claude-code",
  },
  trust: {
    usage: ["trust [list] [--json]", "trust add [DIR]", "trust revoke [DIR]"],
    about:
      "Workspace trust: folders whose .islet/ (and Claude files) may widen Islet with hooks, " +
      "MCP servers, commands and providers. DIR defaults to the working directory.",
    options: [JSON_OPTION],
    groups: ["common"],
    example: "islet trust add ~/code/my-project",
  },
} satisfies Record<string, CommandHelp>;

export type CommandName = keyof typeof COMMANDS;

export function isCommandName(word: string | undefined): word is CommandName {
  return word !== undefined && Object.hasOwn(COMMANDS, word);
}

/** `--help` or `-h` among the flags (before a `--`, after which words are the prompt's). */
export function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  const flags = end === -1 ? argv : argv.slice(0, end);
  return flags.includes("--help") || flags.includes("-h");
}

function optionLines(options: readonly [string, string][]): string[] {
  const width = Math.max(...options.map(([flag]) => flag.length)) + 2;
  return options.map(([flag, what]) => `  ${flag.padEnd(width)}${what}`);
}

export function commandHelp(name: CommandName): string {
  const help: CommandHelp = COMMANDS[name];
  const lines = [
    "Usage:",
    ...help.usage.map((u) => `  islet ${u}`),
    "",
    help.about,
    "",
    "Options:",
    ...optionLines([...(help.options ?? []), ...(help.groups ?? []).flatMap((g) => GROUPS[g])]),
    "",
    "Example:",
    `  ${help.example}`,
  ];
  return lines.join("\n");
}

/** `islet --help`: every command's forms in one screen, then where each one's help is. */
export function overview(): string {
  const forms = Object.values(COMMANDS).flatMap((c: CommandHelp) => c.usage);
  return [
    "islet — the Islet agent engine, headless",
    "",
    "Usage:",
    ...forms.map((f) => `  islet ${f}`),
    "  islet --version",
    "",
    "Common options:",
    ...optionLines(GROUPS.common),
    "",
    "Run and serve options:",
    ...optionLines([...GROUPS.model, ...GROUPS.plugins]),
    "",
    "`islet COMMAND --help` (or `islet help COMMAND`) shows a command's options and an example.",
    "Exit codes: 0 success, 1 the run failed, 2 bad usage.",
  ].join("\n");
}
