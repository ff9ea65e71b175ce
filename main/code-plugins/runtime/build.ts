/**
 * Turns a discovered plugin into a LoadedPlugin: checks, bundle, sandbox, export probing (with
 * signature warnings), tool init/available/schema and command schema. Any failure yields a
 * plugin with status "failed" and one clear line saying why.
 */
import { ExecOutputRoute } from "../capabilities/exec-output.ts";
import { HOOK_TIMINGS, type HookTiming } from "../../turn/hooks/types.ts";
import { SandboxFault, type SandboxModule } from "../../sandbox/types.ts";
import { LoadedPlugin, ownLine, type PluginExports } from "./loaded-plugin.ts";
import { PluginLog } from "./plugin-log.ts";
import { BundleError, type BundleOutput, type PluginPort, type PluginSpec } from "./port.ts";
import type { Problem } from "../../host/problem.ts";
import { commandSchemaSchema, describeIssue, toolSchemaSchema } from "./result-schema.ts";
import type { ConditionCheck } from "./handlers.ts";
import type { ToolSchema } from "../../../plugins/sdk/index.ts";
import type { HostCapabilities } from "../../sandbox/types.ts";
import { exportsKey } from "./exports-cache.ts";

const TOOL_FUNCTIONS = [
  "schema",
  "execute",
  "paths",
  "sandboxable",
  "parallel",
  "init",
  "available",
];
const COMMAND_FUNCTIONS = ["command", "executeCommand"];
/** Declared parameters each export may take (more means the author expects something we never pass). */
const ARITY: Record<string, number> = {
  ...Object.fromEntries(HOOK_TIMINGS.map((t) => [t, 1])),
  schema: 0,
  execute: 2,
  paths: 1,
  sandboxable: 0,
  parallel: 0,
  init: 1,
  available: 0,
  command: 0,
  executeCommand: 2,
};

/** What the probe looks for: a kept description holds only while these are the same. */
const PROBED = [HOOK_TIMINGS, TOOL_FUNCTIONS, COMMAND_FUNCTIONS, ARITY];

export interface Built {
  plugin: LoadedPlugin;
  condition: ConditionCheck | null;
  bundle: BundleOutput | null;
}

class BuildError extends Error {}

function failed(
  spec: PluginSpec,
  log: PluginLog,
  message: string,
  problems: Problem[],
  limits: { budgetMs: number; memoryMb: number },
): LoadedPlugin {
  log.write("error", message);
  return new LoadedPlugin({
    name: spec.name,
    status: "failed",
    error: message,
    problems,
    module: null,
    relaunch: null,
    log,
    limits,
  });
}

async function callBool(
  module: SandboxModule,
  name: string,
  fallback: boolean,
  warnings: string[],
): Promise<boolean> {
  if (!module.functions.has(name)) return fallback;
  const value = await module.call(name, []);
  if (typeof value === "boolean") return value;
  warnings.push(
    `${name}() should return true or false, got ${JSON.stringify(value)}; using ${fallback}`,
  );
  return fallback;
}

function signatureWarnings(module: SandboxModule): string[] {
  const warnings: string[] = [];
  for (const name of [...HOOK_TIMINGS, ...TOOL_FUNCTIONS, ...COMMAND_FUNCTIONS]) {
    if (name in module.values)
      warnings.push(`${name} is exported but is not a function; it is ignored`);
    const arity = module.arity.get(name);
    if (arity !== undefined && arity > ARITY[name]) {
      warnings.push(
        `${name} declares ${arity} parameters but is called with ${ARITY[name]}; check its signature`,
      );
    }
  }
  return warnings;
}

async function probe(
  spec: PluginSpec,
  module: SandboxModule,
  port: PluginPort,
  warnings: string[],
): Promise<PluginExports> {
  const has = (n: string) => module.functions.has(n);
  const hooks = HOOK_TIMINGS.filter((t: HookTiming) => has(t));
  let tool: PluginExports["tool"] = null;
  if (has("schema") !== has("execute"))
    throw new BuildError(
      `a tool needs both schema() and execute(); only ${has("schema") ? "schema" : "execute"} is exported`,
    );
  if (has("schema")) {
    if (has("init")) await module.call("init", [port.toolConfig]);
    if (await callBool(module, "available", true, warnings)) {
      const parsed = toolSchemaSchema.safeParse(await module.call("schema", []));
      if (!parsed.success)
        throw new BuildError(
          `schema() returned an invalid tool schema: ${describeIssue(parsed.error)}`,
        );
      tool = {
        // Validated above; the SDK type is the same shape with `parameters.type` filled in later.
        schema: parsed.data as ToolSchema,
        parallel: await callBool(module, "parallel", true, warnings),
        sandboxable: await callBool(module, "sandboxable", true, warnings),
        hasPaths: has("paths"),
      };
    } else warnings.push("available() returned false: the tool is not registered");
  }
  let command: PluginExports["command"] = null;
  if (has("command") !== has("executeCommand"))
    throw new BuildError("a command needs both command() and executeCommand()");
  if (has("command")) {
    const parsed = commandSchemaSchema.safeParse(await module.call("command", []));
    if (!parsed.success)
      throw new BuildError(
        `command() returned an invalid command schema: ${describeIssue(parsed.error)}`,
      );
    command = parsed.data;
  }
  if (hooks.length === 0 && !has("schema") && !command) {
    throw new BuildError(
      `${spec.entry} exports no hook, tool or command (e.g. export function beforeChat(ctx) { … })`,
    );
  }
  return { hooks, tool, command };
}

export async function buildPlugin(
  spec: PluginSpec,
  port: PluginPort,
  log: PluginLog = new PluginLog(port.logFile(spec.name)),
): Promise<Built> {
  const limits = { budgetMs: port.limits.callTimeoutMs, memoryMb: port.limits.memoryMb };
  /** `message`: the plugin's error; `problems`: the same whole, each where it is when known. */
  const fail = (message: string, problems: Problem[]) => ({
    plugin: failed(spec, log, message, problems, limits),
    condition: null,
    bundle: null,
  });
  if (spec.disabled) {
    return {
      plugin: new LoadedPlugin({
        name: spec.name,
        status: "disabled",
        module: null,
        relaunch: null,
        log,
        limits,
      }),
      condition: null,
      bundle: null,
    };
  }
  // Problems in plugin.yaml, or the entry module the plugin failed in.
  const inManifest = (title: string) => [{ source: spec.name, file: spec.manifestFile, title }];
  const inEntry = (title: string) => [{ source: spec.name, file: spec.entry, title }];
  if (spec.sdkProblem) return fail(spec.sdkProblem, inManifest(spec.sdkProblem));
  let condition: ConditionCheck | null = null;
  if (spec.condition) {
    try {
      condition = port.condition(spec.condition, port.workdir, spec);
    } catch (err) {
      const title = `condition: ${(err as Error).message}`;
      return fail(`${spec.manifestFile}: ${title}`, inManifest(title));
    }
  }
  let bundle: BundleOutput;
  try {
    bundle = await port.bundle(spec);
  } catch (err) {
    const message = (err as Error).message;
    return fail(message, err instanceof BundleError ? err.problems : inEntry(message));
  }
  // Shared by every sandbox of this build (restarts too): the plugin's tool calls enter it.
  const execOutput = new ExecOutputRoute();
  const cache = port.exportsCache;
  const key = cache && exportsKey(bundle.code, `${port.sandbox.backend}:${spec.allowWasm}`, PROBED);
  /**
   * What the module saw of the host: a probe that used it cannot be kept (exports-cache.ts), and
   * one that asks the host anything outside a command (a timer's work) is forgotten, so its module
   * starts with the engine again next time.
   */
  const seen = { called: false, env: false, exec: false };
  let owner: LoadedPlugin | null = null;
  const launch = () => {
    const host = port.capabilities(spec, log, execOutput);
    seen.env ||= Object.keys(host.env).length > 0;
    seen.exec ||= host.exec;
    const watched: HostCapabilities = {
      ...host,
      call: (name, args, signal) => {
        if (!owner?.busy) {
          seen.called = true;
          if (key) cache?.forget(key);
        }
        return host.call(name, args, signal);
      },
    };
    return port.sandbox.load({
      filename: spec.entry,
      code: bundle.code,
      limits: port.limits,
      host: watched,
      allowWasm: spec.allowWasm,
    });
  };
  const known = key ? cache?.get(key) : undefined;
  if (known) {
    // A command-only plugin probed before: its sandbox starts at the command's first use.
    const plugin = new LoadedPlugin({
      name: spec.name,
      status: "active",
      module: null,
      relaunch: launch,
      log,
      limits,
      execOutput,
      idleReleaseMs: spec.stateless ? port.idleReleaseMs : null,
      startOnUse: true,
    });
    plugin.exports = { hooks: [], tool: null, command: known.command };
    owner = plugin;
    addWarnings(spec, plugin, log, known.warnings);
    return { plugin, condition, bundle };
  }
  let module: SandboxModule;
  try {
    module = await launch();
  } catch (err) {
    const message = (err as Error).message;
    // A sandbox fault names the entry itself.
    const error = err instanceof SandboxFault ? message : `${spec.entry}: ${message}`;
    return { ...fail(error, inEntry(message)), bundle };
  }
  const texts = signatureWarnings(module);
  let exports: PluginExports;
  try {
    exports = await probe(spec, module, port, texts);
  } catch (err) {
    module.dispose();
    const title =
      err instanceof BuildError ? err.message : `loading failed: ${(err as Error).message}`;
    return { ...fail(`${spec.name}: ${title}`, [{ source: spec.name, title }]), bundle };
  }
  const plugin = new LoadedPlugin({
    name: spec.name,
    status: "active",
    module,
    relaunch: launch,
    log,
    limits,
    execOutput,
    idleReleaseMs: spec.stateless ? port.idleReleaseMs : null,
  });
  plugin.exports = exports;
  owner = plugin;
  addWarnings(spec, plugin, log, texts);
  const commandOnly = exports.hooks.length === 0 && !exports.tool && exports.command;
  if (key && commandOnly && !seen.called && !seen.env && !seen.exec)
    cache?.set(key, { command: commandOnly, warnings: texts });
  return { plugin, condition, bundle };
}

function addWarnings(spec: PluginSpec, plugin: LoadedPlugin, log: PluginLog, texts: string[]) {
  // Signature warnings are the plugin's own; the manifest's name its plugin.yaml.
  const warnings = [...spec.warnings, ...texts.map((title) => ({ source: spec.name, title }))];
  plugin.warnings.push(...warnings);
  for (const w of warnings) log.write("warn", ownLine(spec.name, w));
}
