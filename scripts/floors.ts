// The floors of the engine, lowest first: a file imports only files on its own floor or below
// (docs/architecture.md). The lint (scripts/eslint-layers.js) and the import graph test
// (scripts/import-graph.test.ts) both read this one list.
//
// `node: false`: no Node built-ins (tests excepted): the renderer and the sandbox bundle it.
// `packages`: when set, the only npm packages the floor may import.
export interface Floor {
  /** A folder (ending in "/") or one file. */
  readonly path: string;
  /** What stands on it, in a few words (docs/architecture.md shows it). */
  readonly what: string;
  readonly node?: false;
  readonly packages?: readonly string[];
}

export const FLOORS: readonly Floor[] = [
  {
    path: "main/core/",
    what: "core types and tables: messages, models, stats, events, provider kinds, sandbox backends, hook timings",
    node: false,
    packages: ["zod"],
  },
  {
    path: "main/host/",
    what: "what the engine asks of its host (questions, secrets) and problems, with their texts",
    node: false,
    packages: ["zod"],
  },
  { path: "main/web/", what: "the renderer page's content security policy" },
  { path: "plugins/sdk/", what: "the public plugin SDK (@islet/sdk); re-exports the core types" },
  { path: "main/config/", what: "config homes, settings files, atomic writes, frontmatter" },
  { path: "main/secrets/", what: "where API keys are kept" },
  { path: "main/models/", what: "local model files: catalog, downloads, GGUF" },
  { path: "main/providers/", what: "model providers: OpenAI-compatible, Anthropic, Ollama, local" },
  {
    path: "main/lifecycle/",
    what: "disposables and layered registries (what registrations return)",
  },
  { path: "main/tools/", what: "tool definitions, the tool registry, built-in tools, approvals" },
  { path: "main/sessions/", what: "session files: records, listing, export" },
  { path: "main/agents/", what: "agent definitions and their registry" },
  { path: "main/turn/", what: "the agent loop: one turn of model calls, tools and hooks" },
  { path: "main/commands/", what: "slash commands" },
  { path: "main/mcp/", what: "the MCP client: server configs, connections, MCP tools" },
  {
    path: "main/contributions/",
    what: "the contribution kernel: registrar, extension sources, hook sources, prompt fragments",
  },
  { path: "main/sandbox/", what: "plugin isolates: isolated-vm and QuickJS backends, the probe" },
  {
    path: "main/code-plugins/",
    what: "code plugins: loader, conditions, capabilities, consent, runtime",
  },
  { path: "main/trust/", what: "workspace trust and what an untrusted folder holds back" },
  {
    path: "main/extensions/",
    what: "declarative extensions: Claude Code plugins, markdown, shell hooks, MCP servers, runners, activation",
  },
  { path: "main/packs/", what: "plugin packs from git and the pack catalog" },
  { path: "main/editor/", what: "the plugin editor's engine side: templates, problems, edits" },
  { path: "main/engine/", what: "the composition root: Engine, conversations, replay, test kit" },
  { path: "main/bridge/", what: "the typed bridge contract and its handlers" },
  { path: "main/serve/", what: "islet serve: the bridge over a loopback WebSocket" },
  { path: "main/cli/", what: "the islet CLI" },
  { path: "main/electron/", what: "the desktop app: the only code that imports electron" },
  { path: "main/index.ts", what: "the Electron entry" },
  { path: "plugins/", what: "example plugins shipped with the app" },
  { path: "e2e/", what: "end-to-end tests against islet serve and the app" },
  { path: "bench/", what: "benchmarks" },
];

const under = (file: string, prefix: string): boolean =>
  prefix.endsWith("/") ? file.startsWith(prefix) : file === prefix;

export interface PlacedFloor extends Floor {
  /** Its place in FLOORS, lowest 0. */
  readonly index: number;
}

/** The floor a repo path stands on (the longest matching path), or null outside the floors. */
export function floorOf(file: string): PlacedFloor | null {
  let best: PlacedFloor | null = null;
  FLOORS.forEach((floor, index) => {
    if (under(file, floor.path) && (!best || floor.path.length > best.path.length))
      best = { ...floor, index };
  });
  return best;
}
