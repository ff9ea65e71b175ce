/**
 * `islet serve`: the engine behind the app's UI in a browser, on 127.0.0.1, until Ctrl-C. Takes
 * run's provider, home, workdir and plugin options; prints the URL with the access token.
 */
import { openBridgeHost } from "../bridge/host.ts";
import { resolveHomes } from "../config/homes.ts";
import { homeSecretStore } from "../secrets/home-file.ts";
import { assertRendererBuilt, startServer } from "../serve/server.ts";
import { COMMON_OPTIONS, MODEL_OPTIONS, parseFlags, parseVars, pluginFlags } from "./options.ts";
import { type Output, warningLines } from "./render.ts";
import { UsageError } from "./usage.ts";
import { cliQuestions, terminalAttached } from "./questions-tty.ts";
import { openBrowser } from "./open-browser.ts";
import type { CallResponse } from "../bridge/contract.ts";
import type { BridgeService } from "../bridge/service.ts";

function parsePort(value: string | undefined): number {
  if (value === undefined) return 0;
  if (!/^\d+$/.test(value) || Number(value) > 65535)
    throw new UsageError(`--port: expected a port number from 0 to 65535, got "${value}"`);
  return Number(value);
}

export async function serveCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    ...COMMON_OPTIONS,
    ...MODEL_OPTIONS,
    port: { type: "string" },
    open: { type: "boolean" },
    yes: { type: "boolean", short: "y" },
  });
  if (positionals.length > 0)
    throw new UsageError(`serve: unexpected argument "${positionals[0]}"`);
  const port = parsePort(values.port);
  assertRendererBuilt();
  const warn = warningLines(io);
  const globalHome = resolveHomes({ home: values.home, workdir: values.workdir }).global;
  const host = await openBridgeHost({
    home: values.home,
    workdir: values.workdir,
    envFile: values["env-file"],
    flags: { provider: values.provider, model: values.model, baseUrl: values["base-url"] },
    vars: parseVars(values.set),
    plugins: pluginFlags(values),
    // Workspace trust is settled here, before the page exists: at this terminal, or --yes.
    questions: cliQuestions({ yes: values.yes, interactive: terminalAttached() }),
    host: {
      host: "browser",
      versions: { node: process.versions.node, electron: null, chrome: null },
    },
    // Keys typed into Settings: sealed in a 0600 file under the home (no OS keychain here).
    secrets: homeSecretStore(globalHome, warn),
    warn,
  });
  try {
    const server = await startServer({ service: host.service, port }).catch((err: unknown) => {
      if ((err as NodeJS.ErrnoException).code === "EADDRINUSE")
        throw new Error(`--port ${port}: that port is in use; pick another or leave --port out`);
      throw err;
    });
    const backend = host.engine.plugins?.backend;
    io.err(
      `Islet ${host.engine.homes.workdir}` +
        (backend ? ` · plugins on ${backend.name} (${backend.reason})` : " · plugins off") +
        "\n",
    );
    io.out(`Islet is serving on ${server.url}\n`);
    if (values.open) {
      const why = await openBrowser(server.url);
      if (why) io.err(`Could not open a browser (${why}); open the URL above in one.\n`);
    }
    void host.engine.askPluginPermissions();
    void sayWhenNoModel(host.service, io);
    await signalled();
    await server.close();
    return 0;
  } finally {
    await host.close();
  }
}

/** A first start with nothing to talk to gets told what to do, in the page rather than here. */
async function sayWhenNoModel(service: BridgeService, io: Output): Promise<void> {
  const client = service.connect({ deliver: () => {} });
  try {
    const listed = (await client.call("models/list", {})) as CallResponse<"models/list">;
    if (listed.current === null)
      io.err(
        "No model yet: none downloaded, no Ollama, LM Studio or llama.cpp server answering, no " +
          "provider configured. Open the URL and choose Download in the chat (or start a local " +
          "server, or add a provider in Settings).\n",
      );
  } catch {
    // The page says the same when it lists models; a failure here needs no second line.
  } finally {
    client.close();
  }
}

function signalled(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve(signal);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
