/** Files the loader could not use at all (bad manifests, duplicates…): no card, so a list. */
import type { PluginList } from "../../../main/bridge/contract.ts";
import { AlertIcon } from "../ui/icons.tsx";
import { plural, relativeTo, splitLocation } from "./format.ts";

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
          const { location, text } = splitLocation(problem.message, home);
          return (
            <li key={`${problem.file}\n${problem.message}`} className="problem">
              <code className="error-location" title={problem.file}>
                {location ?? relativeTo(problem.file, home)}
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
