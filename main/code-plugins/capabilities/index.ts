/**
 * The host side of a plugin's capabilities, backend-independent: what `HostCapabilities.call`
 * runs for each service name, with the plugin's granted permissions enforced here (the sandbox
 * only forwards). Arguments arrive from plugin code and are validated before use.
 */
import { realpath, stat } from "node:fs/promises";
import { z } from "zod";
import type { HostCapabilities, LogLevel } from "../../sandbox/types.ts";
import {
  childEnv,
  DEFAULT_EXEC_LIMITS,
  execArgsSchema,
  runProgram,
  type ExecLimits,
} from "./exec.ts";
import type { ExecOutputRoute } from "./exec-output.ts";
import { expandPath, PluginFiles, type FileLimits, type ProtectedPaths } from "./files.ts";
import { fetchRequestSchema, pluginFetch, type NetworkLimits } from "./network.ts";
import type { PluginPermissions } from "./permissions.ts";

export interface CapabilityLimits {
  files: Partial<FileLimits>;
  network: Partial<NetworkLimits>;
  exec: Partial<ExecLimits>;
}

export interface HostCapabilityOptions {
  /** The plugin's name, as error messages show it. */
  plugin: string;
  pluginDir: string;
  /** The plugin's own writable folder (`fs.dataDir`). */
  dataDir: string;
  workdir: string;
  /** What no plugin reaches whatever it was granted. */
  protected: ProtectedPaths;
  /** Already filtered to the variables the user granted. */
  env: Readonly<Record<string, string>>;
  /** `@islet/sdk/exec` and the "exec" service exist: unsafe mode and the user granted exec. */
  exec: boolean;
  /** What the user granted of what plugin.yaml asks for (never the request itself). */
  permissions: PluginPermissions;
  /** The plugin's log (console output, sandbox faults). */
  log(level: LogLevel, text: string): void;
  /** Which running tool call's card an exec streams to (none: output with the result only). */
  execOutput?: ExecOutputRoute;
  limits?: Partial<CapabilityLimits>;
}

type Service = (args: unknown[], signal: AbortSignal | undefined) => Promise<unknown>;

const path1 = z.tuple([z.string()]);
const pathAndText = z.tuple([z.string(), z.string()]);

export function createHostCapabilities(opts: HostCapabilityOptions): HostCapabilities {
  const { plugin, permissions } = opts;
  const files = new PluginFiles({
    plugin,
    workdir: opts.workdir,
    pluginDir: opts.pluginDir,
    dataDir: opts.dataDir,
    protected: opts.protected,
    grants: permissions.paths,
    limits: opts.limits?.files,
  });
  const execLimits = { ...DEFAULT_EXEC_LIMITS, ...opts.limits?.exec };
  const env = Object.freeze({ ...opts.env });

  const services: Record<string, Service> = {
    "fs.readFile": async (args) => files.readFile(...parse(path1, args, "fs.readFile")),
    "fs.writeFile": async (args) => files.writeFile(...parse(pathAndText, args, "fs.writeFile")),
    "fs.appendFile": async (args) => files.appendFile(...parse(pathAndText, args, "fs.appendFile")),
    "fs.readdir": async (args) => files.readdir(...parse(path1, args, "fs.readdir")),
    "fs.stat": async (args) => files.stat(...parse(path1, args, "fs.stat")),
    "fs.exists": async (args) => files.exists(...parse(path1, args, "fs.exists")),
    fetch: async (args, signal) =>
      pluginFetch(parse(z.tuple([fetchRequestSchema]), args, "fetch")[0], {
        plugin,
        grants: permissions.network ?? [],
        signal,
        limits: opts.limits?.network,
      }),
  };
  if (opts.exec) {
    services.exec = async (args, signal) => {
      const [argv, options] = parse(execArgsSchema, args, "exec");
      const cwd = await execCwd(options.cwd ?? ".", opts, files);
      return runProgram(argv, {
        cwd,
        env: childEnv(env),
        timeoutMs: Math.min(
          options.timeoutMs ?? execLimits.defaultTimeoutMs,
          execLimits.maxTimeoutMs,
        ),
        stdin: options.stdin,
        maxOutputBytes: execLimits.maxOutputBytes,
        signal,
        onOutput: opts.execOutput?.sink(),
      });
    };
  }

  return {
    log: opts.log,
    env,
    exec: opts.exec,
    dataDir: files.dataDir,
    call(name, args, signal) {
      const service = Object.hasOwn(services, name) ? services[name] : undefined;
      if (service === undefined) {
        return Promise.reject(
          new Error(
            name === "exec"
              ? "exec needs unsafe mode and the user's grant of permissions.exec"
              : `no host service named ${name}`,
          ),
        );
      }
      return service(args, signal);
    },
  };
}

function parse<T>(schema: z.ZodType<T>, args: unknown[], service: string): T {
  const result = schema.safeParse(args);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new Error(
    `${service}: ${issue?.message ?? "invalid arguments"}${issue?.path.length ? ` (argument ${issue.path.join(".")})` : ""}`,
  );
}

// The working directory must be an existing folder the plugin may read (workspace, its own
// folder or a granted path); the program itself is not confined — that is what unsafe means.
async function execCwd(
  cwd: string,
  opts: HostCapabilityOptions,
  files: PluginFiles,
): Promise<string> {
  if (!(await files.exists(cwd))) throw new Error(`exec: working directory ${cwd} does not exist`);
  const real = await realpath(expandPath(cwd, opts.workdir));
  if (!(await stat(real)).isDirectory())
    throw new Error(`exec: working directory ${cwd} is not a directory`);
  return real;
}
