/**
 * The body of a pack install or update question as lines of text, shared by the terminal prompt
 * and the dialog: what is installed from where, each plugin with what it asks for, and for an
 * update the commits and files that changed. Every string from the pack (names, descriptions,
 * hook and MCP commands, commit subjects and authors, paths) is shown with its control and
 * invisible characters made visible: a hook command cannot erase its own line.
 */
import { describePermission } from "./permission-text.ts";
import type { PackPluginSummary, QuestionOf } from "./questions.ts";
import { visibleQuestion } from "./visible-question.ts";

const MAX_COMMITS = 20;
const MAX_FILES = 30;
const MAX_REMOTE = 30;

const FORMAT_LABEL: Record<PackPluginSummary["format"], string> = {
  islet: "",
  claude: " (Claude Code plugin)",
  runner: " (CLI-tool runner)",
};

function pluginLines(plugins: PackPluginSummary[], onlyNew: boolean): string[] {
  return plugins.flatMap((p) => [
    `${p.name}${FORMAT_LABEL[p.format]}${p.description ? ` — ${p.description}` : ""}`,
    ...(p.permissions.length
      ? p.permissions.map((i) => `    ${onlyNew ? "new: " : ""}${describePermission(i)}`)
      : onlyNew
        ? []
        : ["    asks for nothing beyond the defaults"]),
  ]);
}

function capped<T>(items: T[], max: number, line: (item: T) => string): string[] {
  const shown = items.slice(0, max).map(line);
  return items.length > max ? [...shown, `… and ${items.length - max} more`] : shown;
}

function sameNamedLines(sameNamed: { pack: string; plugins: string[] }[] | undefined): string[] {
  return (sameNamed ?? []).map(
    (s) =>
      `  Already installed from ${s.pack}, whose copies go on loading (these do not): ${s.plugins.join(", ")}`,
  );
}

/** The install question's lines; `question` as received (its strings are made visible here). */
export function packInstallLines(question: QuestionOf<"pack-install">): string[] {
  const q = visibleQuestion(question);
  const at = [
    q.ref && `ref ${q.ref}`,
    q.subpath && `subpath ${q.subpath}`,
    q.commit && `commit ${q.commit.slice(0, 12)}`,
  ]
    .filter(Boolean)
    .join(", ");
  return [
    ...(q.via === "link" ? ["A link opened Islet and asks for this install."] : []),
    ...(q.listedBy ? [`The Claude Code marketplace ${q.listedBy} lists it.`] : []),
    `Install ${q.pack} from ${q.source}${at ? ` (${at})` : ""} into the ${q.scope === "global" ? "global" : "workspace's"} plugins:`,
    ...pluginLines(q.plugins, false).map((l) => `  ${l}`),
    ...sameNamedLines(q.sameNamed),
    ...(q.remote?.length
      ? [
          `  Not part of this install: ${q.remote.length} plugin${q.remote.length === 1 ? "" : "s"} it lists from other repositories, each installed on its own (islet plugins add ${q.pack} --plugin NAME):`,
          ...capped(q.remote, MAX_REMOTE, (r) => `    ${r.name} — ${r.source}`),
        ]
      : []),
  ];
}

/** The update question's lines; `question` as received (its strings are made visible here). */
export function packUpdateLines(question: QuestionOf<"pack-update">): string[] {
  const q = visibleQuestion(question);
  const asksMore = q.plugins.some((p) => p.permissions.length > 0);
  return [
    `Update ${q.pack} (${q.source}) from ${q.from.slice(0, 12)} to ${q.to.slice(0, 12)}:`,
    `  ${q.commits.length} commit${q.commits.length === 1 ? "" : "s"}:`,
    ...capped(
      q.commits,
      MAX_COMMITS,
      (c) => `    ${c.hash.slice(0, 8)} ${c.subject} (${c.author})`,
    ),
    `  ${q.files.length} file${q.files.length === 1 ? "" : "s"} changed:`,
    ...capped(q.files, MAX_FILES, (f) => `    ${f.change.padEnd(8)} ${f.path}`),
    ...(q.added.length ? [`  adds: ${q.added.join(", ")}`] : []),
    ...sameNamedLines(q.sameNamed).map((l) => `  ${l}`),
    ...(q.removed.length ? [`  removes: ${q.removed.join(", ")}`] : []),
    ...(asksMore
      ? [
          "  asks for more than you granted:",
          ...pluginLines(
            q.plugins.filter((p) => p.permissions.length > 0),
            true,
          ).map((l) => `    ${l}`),
        ]
      : []),
  ];
}
