/** `islet sessions list|show|export|rename|delete`. */
import { writeFile } from "node:fs/promises";
import { exportJson, exportMarkdown } from "../sessions/export.ts";
import { resolveHomes } from "../config/homes.ts";
import { SessionStore } from "../sessions/store.ts";
import { COMMON_OPTIONS, parseFlags } from "./options.ts";
import { type Output, warningLines } from "./render.ts";
import { UsageError } from "./usage.ts";

function need(id: string | undefined, what: string): string {
  if (!id) throw new UsageError(`sessions ${what}: a session id (or unique prefix) is required`);
  return id;
}

export async function sessionsCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    ...COMMON_OPTIONS,
    json: { type: "boolean" },
    format: { type: "string" },
    output: { type: "string", short: "o" },
  });
  const store = SessionStore.forHome(
    resolveHomes({ home: values.home, workdir: values.workdir }).global,
  );
  const [sub, ...rest] = positionals;
  const warn = warningLines(io);
  // Damaged lines, worded as resuming the session reports them (reconstruct.ts).
  const load = async (what: string) => {
    const loaded = await store.load(await store.resolve(need(rest[0], what)));
    for (const problem of loaded.warnings) warn(problem);
    return loaded;
  };
  switch (sub) {
    case undefined:
    case "list": {
      const list = await store.list({ warn });
      if (values.json) {
        io.out(`${JSON.stringify(list, null, 2)}\n`);
        return 0;
      }
      if (list.length === 0) io.out("No sessions yet.\n");
      for (const s of list) {
        io.out(
          `${s.id}  ${s.updatedAt.slice(0, 16).replace("T", " ")}  ${String(s.messageCount).padStart(4)} msgs  ${s.title || "(untitled)"}\n`,
        );
      }
      return 0;
    }
    case "show": {
      const loaded = await load("show");
      io.out(values.json ? exportJson(loaded) : exportMarkdown(loaded));
      return 0;
    }
    case "export": {
      const loaded = await load("export");
      const format = values.format ?? (values.output?.endsWith(".json") ? "json" : "md");
      if (format !== "md" && format !== "json")
        throw new UsageError(`--format: expected md or json, got "${format}"`);
      const text = format === "json" ? exportJson(loaded) : exportMarkdown(loaded);
      if (values.output) {
        await writeFile(values.output, text);
        io.err(`wrote ${values.output}\n`);
      } else io.out(text);
      return 0;
    }
    case "rename": {
      const id = await store.resolve(need(rest[0], "rename"));
      const title = rest.slice(1).join(" ").trim();
      if (!title) throw new UsageError("sessions rename: a new title is required");
      await store.rename(id, title);
      io.out(`${id}  ${title}\n`);
      return 0;
    }
    case "delete": {
      const id = await store.resolve(need(rest[0], "delete"));
      await store.delete(id);
      io.out(`deleted ${id}\n`);
      return 0;
    }
    default:
      throw new UsageError(
        `sessions: unknown subcommand "${sub}" (list, show, export, rename, delete)`,
      );
  }
}
