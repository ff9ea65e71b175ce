/**
 * A plugin's problems as the editor marks them: bundle errors (`file:line:column: text`, one per
 * line), a failed reload, the last runtime fault; files relative to the plugin folder so the
 * editor can put each marker in the file and at the line it names.
 */
import path from "node:path";
import { problemFromLine, type Problem } from "../host/problem.ts";
import { isInside } from "../code-plugins/capabilities/files.ts";

/** One problem per line of an error report (a bundle error lists every error it found). */
export function errorProblems(error: string, plugin: string, dir: string): Problem[] {
  return error
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => relativeTo(problemFromLine(line, plugin), plugin, dir));
}

/** A runtime fault: where the plugin's stack says it happened, when it names a plugin file. */
export function faultProblem(
  fault: { call: string; message: string },
  plugin: string,
  dir: string,
  entry: string,
): Problem {
  const at = /\(?((?:[A-Za-z]:)?[^\s():]+\.[cm]?[jt]sx?):(\d+):(\d+)\)?/.exec(fault.message);
  const file = at && path.isAbsolute(at[1]) ? at[1] : entry;
  const problem: Problem = {
    source: plugin,
    file,
    title: `${fault.call} ${fault.message.split("\n")[0]}`,
  };
  if (at) Object.assign(problem, { line: Number(at[2]), column: Number(at[3]) });
  return relativeTo(problem, plugin, dir);
}

function relativeTo(problem: Problem, plugin: string, dir: string): Problem {
  // Paths inside the plugin read as the editor's file tree shows them.
  const out: Problem = {
    ...problem,
    source: plugin,
    title: problem.title.replaceAll(`${dir}/`, ""),
  };
  if (out.file && path.isAbsolute(out.file) && isInside(out.file, dir))
    out.file = path.relative(dir, out.file).split(path.sep).join("/");
  return out;
}
