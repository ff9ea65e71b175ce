/** Files the loader could not use at all (bad manifests, duplicates…): no card, so a list. */
import type { PluginList } from "../../../main/bridge/contract.ts";
import { AlertIcon } from "../ui/icons.tsx";
import { formatProblem } from "../../../main/host/problem.ts";
import { plural, problemParts } from "./format.ts";

export function ProblemList({
  problems,
  home,
}: {
  problems: PluginList["problems"];
  home: string | undefined;
}) {
  if (problems.length === 0) return null;
  return (
    <section className="problems" aria-labelledby="problems-title">
      <h2 id="problems-title" className="problems-title">
        <AlertIcon />
        {plural(problems.length, "plugin")} could not be loaded
      </h2>
      <ul className="problem-list">
        {problems.map((problem) => {
          const { location, text } = problemParts(problem, home);
          return (
            <li key={formatProblem(problem)} className="problem">
              <code className="error-location" title={problem.file}>
                {location}
              </code>
              <span className="problem-message">{text}</span>
            </li>
          );
        })}
      </ul>
      <p className="problems-hint">Fix the file and save: the plugin loads by itself.</p>
    </section>
  );
}
