/**
 * MCP servers from the config homes and the project: `config/mcp/*.yaml` (one server per file, or
 * an `mcpServers` map) in the global home and, when the workspace is trusted, in the project home,
 * and Claude Code's `.mcp.json` at the project root (trusted only: each one runs a program).
 * Later files shadow earlier ones of the same name. Claude Code plugins add theirs through their
 * own registrar: `registrar.mcpServer({ name, source, spec })` with `loadMcpConfig`'s servers.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { configDir, homeLayers, type Homes } from "../../config/homes.ts";
import type { ContributionRegistrar, ScopedRegistrar } from "../../contributions/registrar.ts";
import type { Discovery, ExtensionSource } from "../../contributions/source.ts";
import { loadMcpConfig, type McpServerSpec } from "../../mcp/config.ts";
import { PROJECT_MCP_FILE } from "../../config/workspace-files.ts";

export interface McpConfigSourceOptions {
  homes: Homes;
  /** Whether the project's .islet/ and .mcp.json may start servers. */
  trustedProject: boolean;
  env: Record<string, string | undefined>;
}

export class McpConfigSource implements ExtensionSource<McpServerSpec> {
  readonly id = "mcp";
  private readonly opts: McpConfigSourceOptions;
  private scope: ScopedRegistrar | null = null;

  constructor(opts: McpConfigSourceOptions) {
    this.opts = opts;
  }

  /** The files read, lowest precedence first. */
  files(): string[] {
    const { homes, trustedProject } = this.opts;
    const layers = homeLayers(homes).filter((h) => h === homes.global || trustedProject);
    const out: string[] = [];
    for (const home of layers) {
      const dir = configDir(home, "mcp");
      let names: string[] = [];
      try {
        names = readdirSync(dir).filter((n) => /\.(ya?ml|json)$/i.test(n) && !n.startsWith("."));
      } catch {
        // No config/mcp folder: no servers from it.
      }
      out.push(...names.sort().map((n) => path.join(dir, n)));
    }
    if (trustedProject) out.push(path.join(homes.workdir, PROJECT_MCP_FILE));
    return out;
  }

  async discover(): Promise<Discovery<McpServerSpec>> {
    const found: McpServerSpec[] = [];
    const problems: Discovery<McpServerSpec>["problems"] = [];
    for (const file of this.files()) {
      const result = loadMcpConfig(file, {
        env: this.opts.env,
        source: shortPath(this.opts.homes.workdir, file),
      });
      found.push(...result.servers);
      problems.push(...result.problems);
    }
    return { found, problems };
  }

  async load(registrar: ContributionRegistrar): Promise<void> {
    const { found } = await this.discover();
    const scope = registrar.scope();
    for (const spec of found) scope.mcpServer({ name: spec.name, source: spec.source, spec });
    this.scope = scope;
  }

  async dispose(): Promise<void> {
    this.scope?.dispose();
    this.scope = null;
  }
}

/** A file inside the workspace by its relative path; others (the global home) in full. */
function shortPath(workdir: string, file: string): string {
  const rel = path.relative(workdir, file);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : file;
}
