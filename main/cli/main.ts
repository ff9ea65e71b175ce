/** The `islet` command line (SPEC §10). Exit codes: 0 success, 1 failure, 2 bad usage. */
import { COMMON_OPTIONS, parseFlags, PLUGIN_OPTIONS, pluginFlags } from "./options.ts";
import { processOutput, type Output, warningLines } from "./render.ts";
import { asksForHelp, commandHelp, isCommandName, overview } from "./help.ts";
import { UsageError } from "./usage.ts";
import { APP_VERSION } from "../core/version.ts";

export async function main(argv: string[], io: Output = processOutput): Promise<number> {
  const [command, ...rest] = argv;
  // Help is answered before anything runs: `islet serve --help` must not start a server.
  if (isCommandName(command) && asksForHelp(rest)) {
    io.out(`${commandHelp(command)}\n`);
    return 0;
  }
  try {
    switch (command) {
      case "run":
        return await (await import("./run-command.ts")).runCommand(rest, io);
      case "tools": {
        const { values, positionals } = parseFlags(rest, {
          ...COMMON_OPTIONS,
          ...PLUGIN_OPTIONS,
          yes: { type: "boolean", short: "y" },
        });
        const { createEngine } = await import("../engine/bootstrap.ts");
        const { toolsCommand } = await import("./tools-command.ts");
        const { cliQuestions, terminalAttached } = await import("./questions-tty.ts");
        const engine = await createEngine({
          home: values.home,
          workdir: values.workdir,
          envFile: values["env-file"],
          plugins: pluginFlags(values),
          questions: cliQuestions({ yes: values.yes, interactive: terminalAttached() }),
          warn: warningLines(io),
        });
        try {
          await engine.askPluginPermissions();
          await engine.mcp.startAll(); // MCP servers' tools are known once they run
          return await toolsCommand(engine.tools, positionals, engine.homes.workdir, io, (name) =>
            engine.plugins?.missingTool(name),
          );
        } finally {
          await engine.close();
        }
      }
      case "plugins":
        return await (await import("./plugins-command.ts")).pluginsCommand(rest, io);
      case "sessions": {
        return await (await import("./sessions-command.ts")).sessionsCommand(rest, io);
      }
      case "mcp":
        return await (await import("./mcp-command.ts")).mcpCommand(rest, io);
      case "trust":
        return await (await import("./trust-command.ts")).trustCommand(rest, io);
      case "models":
        return await (await import("./models-command.ts")).modelsCommand(rest, io);
      case "serve":
        return await (await import("./serve-command.ts")).serveCommand(rest, io);
      case "--version":
      case "-v":
        io.out(`islet ${APP_VERSION}\n`);
        return 0;
      case "help":
        if (isCommandName(rest[0])) {
          io.out(`${commandHelp(rest[0])}\n`);
          return 0;
        }
        if (rest[0] !== undefined) throw new UsageError(`no command "${rest[0]}"`);
        io.out(`${overview()}\n`);
        return 0;
      case undefined:
      case "--help":
      case "-h":
        io.out(`${overview()}\n`);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (err) {
    const e = err as Error;
    if (!(e instanceof UsageError)) {
      io.err(`islet: ${e.message}\n`);
      return 1;
    }
    // A message that already names the command to run next needs no second pointer.
    const help = isCommandName(command) ? `islet ${command} --help` : "islet --help";
    const pointer = /`islet /.test(e.message) ? "" : `; see \`${help}\``;
    io.err(`islet: ${e.message}${pointer}\n`);
    return 2;
  }
}

// Run only as the entry point (tests import main()).
if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2));
}
