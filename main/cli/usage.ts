/** Help text and the error type for bad usage (exit code 2). */
import { PROVIDER_KINDS } from "../core/provider-kinds.ts";

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export const USAGE = `islet — the Islet agent engine, headless

Usage:
  islet run [options] PROMPT...            run the agent on a prompt (a /command runs that command)
  islet tools [NAME [KEY=VALUE... | JSON]] list tools, show one's schema, or run it (no hooks)
  islet sessions list|show|export|rename|delete ...
  islet models [list] [--json]             embedded models and the catalog, detected local servers,
                                           configured providers
  islet models pull NAME|URL               download a model for the embedded runtime (resumes)
  islet models rm NAME                     delete a downloaded model
  islet mcp list [--json]                  MCP servers: source, status, tools (starts them)
  islet plugins list|show NAME [--json]    installed plugins: hooks, tools, commands, errors
  islet plugins permissions NAME [--reset] what a plugin asks for and what you granted
  islet plugins add SOURCE [--ref R] [--subpath P] [--name N] [--global] [--no-vendor] [--yes]
                                           install a pack from a git URL, owner/repo or a folder
  islet plugins update NAME|--all [--no-vendor] [--force] [--yes]
                                           update a pack (a plugin's name updates its pack)
  islet plugins remove NAME                remove a pack (a plugin's name, if it is alone in it)
  islet plugins search [TERM] [--tag T]    packs in the catalogs (default + Settings), installed or not
  islet trust list|add [DIR]|revoke [DIR]  folders whose .islet/ may widen Islet (workspace trust)
  islet serve [--port N] [run options]     the app's UI for a browser, on 127.0.0.1, behind a token

Common options:
  --home DIR          global home (default ~/.islet, or ISLET_HOME)
  --workdir DIR       working directory; its .islet/ is the project home (default: current dir)
  --env-file FILE     KEY=VALUE file with API keys (default: secrets.env in the workdir)

Run options:
  --provider NAME     provider from providers.yaml, or a kind: ${PROVIDER_KINDS.join(", ")}
  --model NAME        model name
  --base-url URL      provider base URL
  --agent NAME        agent from config/agents/*.md (default: default)
  --session ID        resume a saved session (unique id prefix is enough)
  --max-steps N       stop after N model steps
  --yes               yes to every question for this run: tool calls, plugin permissions,
                      workspace trust (nothing is remembered)
  --json              print one JSON event per line
  --set KEY=VALUE     template variable for plugins (repeatable)
  --without-plugins   load no plugins
  --unsafe-plugins    allow plugins to run processes
  --plugin-runtime R  sandbox for plugins: isolated-vm (default under Node) or quickjs

Serve options (and every run option but --session, --max-steps, --json; with serve, --yes trusts
the folder and grants plugin permissions for that run, and tool calls are asked in the page):
  --port N            port on 127.0.0.1 (default: a free one); the printed URL carries the token

Exit codes: 0 success, 1 the run failed, 2 bad usage.`;
