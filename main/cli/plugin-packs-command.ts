/**
 * `islet plugins add|update|remove` (SPEC §7, seed 000): the pack manager at a terminal. Install
 * always asks (`--yes` accepts; without a terminal and without --yes it is refused, saying so);
 * an update prints what changed and asks only when it wants permissions not granted before.
 * Progress goes to stderr when stderr is a terminal. Tokens come from the environment only.
 */
import { resolveHomes } from "../config/homes.ts";
import { packInstallLines, packUpdateLines } from "../host/pack-question-text.ts";
import { ask, type QuestionPort } from "../host/questions.ts";
import {
  packManager,
  PackError,
  type InstalledPack,
  type PackOperationHooks,
} from "../packs/index.ts";
import type { PackInstallQuestion, PackUpdateQuestion } from "../host/questions.ts";
import { COMMON_OPTIONS, parseFlags } from "./options.ts";
import { progressPrinter } from "./pack-progress.ts";
import { cliQuestions, terminalAttached } from "./questions-tty.ts";
import { type Output, warningLines } from "./render.ts";
import { UsageError } from "./usage.ts";

const short = (commit: string | undefined) => (commit ? commit.slice(0, 12) : "");

function consent(io: Output, port: QuestionPort, yes: boolean) {
  return async (q: PackInstallQuestion | PackUpdateQuestion): Promise<boolean> => {
    const lines = q.kind === "pack-install" ? packInstallLines(q) : packUpdateLines(q);
    const asksMore = q.kind === "pack-install" || q.plugins.some((p) => p.permissions.length > 0);
    if (!asksMore) {
      io.out(`${lines.join("\n")}\n`);
      return true;
    }
    if (yes) {
      io.err(`${lines.join("\n")}\n  (accepted with --yes)\n`);
      return true;
    }
    const { answer, answered } = await ask(port, q);
    if (!answered) {
      io.err(`${lines.join("\n")}\n`);
      // An update is not applied: the installed version, and what was approved, stay.
      const what =
        q.kind === "pack-install"
          ? "installing it needs"
          : "this update asks for more permissions or changes what runs, and needs";
      throw new PackError(
        `${q.pack}: ${what} your consent: run this at a terminal, or pass --yes to accept what it asks for`,
      );
    }
    return answer === "install" || answer === "update";
  };
}

function describeInstalled(p: InstalledPack): string {
  const list = `${p.plugins.length} plugin${p.plugins.length === 1 ? "" : "s"}: ${p.plugins.join(", ")}`;
  const from = p.origin
    ? ` from ${p.origin.url}${p.origin.ref ? ` at ${p.origin.ref}` : ""}${p.origin.subpath ? ` (subpath ${p.origin.subpath})` : ""} (${short(p.origin.commit)})`
    : "";
  return `${p.name} (${list})${from} into ${p.dir}`;
}

export async function packsCommand(
  sub: "add" | "update" | "remove",
  argv: string[],
  io: Output,
): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    ...COMMON_OPTIONS,
    json: { type: "boolean" },
    yes: { type: "boolean", short: "y" },
    ref: { type: "string" },
    subpath: { type: "string" },
    name: { type: "string" },
    plugin: { type: "string" },
    global: { type: "boolean" },
    "no-vendor": { type: "boolean" },
    force: { type: "boolean" },
    all: { type: "boolean" },
  });
  const allowed: Record<typeof sub, string[]> = {
    add: ["ref", "subpath", "name", "plugin", "global", "no-vendor", "yes"],
    update: ["all", "no-vendor", "force", "yes"],
    remove: [],
  };
  for (const flag of [
    "ref",
    "subpath",
    "name",
    "plugin",
    "global",
    "no-vendor",
    "force",
    "all",
    "yes",
  ] as const)
    if (values[flag] !== undefined && !allowed[sub].includes(flag))
      throw new UsageError(
        `plugins ${sub}: --${flag} does not apply (it takes ${allowed[sub].map((f) => `--${f}`).join(", ") || "no options"})`,
      );
  const target = positionals[1];
  if (positionals.length > 2)
    throw new UsageError(`plugins ${sub}: one ${sub === "add" ? "source" : "name"} at a time`);
  const homes = resolveHomes({ home: values.home, workdir: values.workdir });
  const manager = packManager({ homes, env: process.env, warn: warningLines(io) });
  const interactive = terminalAttached();
  const progress = progressPrinter({ isTTY: process.stderr.isTTY, write: (t) => io.err(t) });
  const hooks: PackOperationHooks = {
    consent: consent(io, cliQuestions({ yes: values.yes, interactive }), values.yes === true),
    ...(progress ? { progress } : {}),
    ...(values.force ? { force: true } : {}),
    ...(values["no-vendor"] ? { vendor: false } : {}),
  };
  const json = (data: unknown) => io.out(`${JSON.stringify(data, null, 2)}\n`);

  if (sub === "add") {
    if (!target) throw new UsageError("plugins add: a git URL, owner/repo or folder is required");
    const pack = await manager.add(
      {
        source: target,
        scope: values.global ? "global" : "project",
        ...(values.ref !== undefined ? { ref: values.ref } : {}),
        ...(values.subpath !== undefined ? { subpath: values.subpath } : {}),
        ...(values.name !== undefined ? { name: values.name } : {}),
        ...(values.plugin !== undefined ? { plugin: values.plugin } : {}),
        vendor: !values["no-vendor"],
      },
      hooks,
    );
    if (values.json) json(pack);
    else {
      io.out(
        `Installed ${describeInstalled(pack)}${pack.origin ? "" : " (a copy: no update path)"}\n`,
      );
      for (const same of pack.sameNamed ?? [])
        io.out(
          `  ${same.plugins.length} of them ${same.plugins.length === 1 ? "is" : "are"} also in ${same.pack}, installed before, whose copies go on loading: ${same.plugins.join(", ")} (\`islet plugins remove ${same.pack}\` hands them to ${pack.name})\n`,
        );
    }
    return 0;
  }

  if (sub === "remove") {
    if (!target) throw new UsageError("plugins remove: a plugin or pack name is required");
    const pack = await manager.remove(target);
    if (values.json) json(pack);
    else
      io.out(
        `Removed ${pack.name} (${pack.plugins.join(", ") || "no plugins"}) from ${pack.dir}\n`,
      );
    return 0;
  }

  if (Boolean(values.all) === (target !== undefined))
    throw new UsageError("plugins update: name one plugin or pack, or pass --all");
  const results = values.all
    ? await manager.updateAll(hooks)
    : [await manager.update(target!, hooks)];
  if (values.json) json(values.all ? results : results[0]);
  let failed = 0;
  for (const r of results) {
    if ("error" in r) {
      failed++;
      if (!values.json) io.err(`islet: ${r.error}\n`);
    } else if (!values.json)
      io.out(
        r.changed
          ? `Updated ${r.pack.name} from ${short(r.from)} to ${short(r.to)}\n`
          : `${r.pack.name} is up to date (${short(r.to)})\n`,
      );
  }
  if (values.all && results.length === 0 && !values.json) io.out("No pack installed from git.\n");
  return failed ? 1 : 0;
}
