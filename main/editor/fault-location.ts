/**
 * A runtime fault's position, from the bundle the sandbox ran back to the plugin's own source:
 * stack frames name lines of the esbuild bundle (types stripped, modules joined), while the
 * editor marks the file and line the author wrote. The bundle carries an inline source map;
 * Node's own SourceMap reads it.
 */
import { SourceMap } from "node:module";
import path from "node:path";
import type { Problem } from "../host/problem.ts";

const INLINE_MAP = /\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)\s*$/;

/** The problem with its file, line and column moved to the original source, where the map knows. */
export function mapToSource(problem: Problem, bundleCode: string, pluginDir: string): Problem {
  if (problem.line === undefined) return problem;
  const inline = INLINE_MAP.exec(bundleCode);
  if (!inline) return problem;
  let origin: { fileName?: string; lineNumber?: number; columnNumber?: number };
  try {
    const map = new SourceMap(JSON.parse(Buffer.from(inline[1], "base64").toString("utf8")));
    origin = map.findOrigin(problem.line, problem.column ?? 1) as typeof origin;
  } catch {
    return problem;
  }
  if (!origin.fileName || !origin.lineNumber) return problem;
  const file = path.isAbsolute(origin.fileName)
    ? path.relative(pluginDir, origin.fileName)
    : path.normalize(origin.fileName);
  if (file.startsWith("..")) return problem;
  return {
    ...problem,
    file: file.split(path.sep).join("/"),
    line: origin.lineNumber,
    column: origin.columnNumber ?? 1,
  };
}
