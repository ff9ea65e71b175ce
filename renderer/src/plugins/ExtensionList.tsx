/** Shell hook files and Claude Code plugins, below the code plugins, under the same filter. */
import type { ExtensionEntry } from "../../../main/bridge/contract.ts";
import { ExtensionCard } from "./ExtensionCard.tsx";

export function ExtensionList({ entries, filter }: { entries: ExtensionEntry[]; filter: string }) {
  if (entries.length === 0) return null;
  const shown = matching(entries, filter);
  if (shown.length === 0) return null;
  return (
    <section aria-labelledby="extensions-title">
      <h2 id="extensions-title" className="extensions-title">
        Shell hooks and Claude Code plugins
      </h2>
      <ul className="plugin-list" aria-label="Shell hooks and Claude Code plugins">
        {shown.map((e) => (
          <li key={`${e.kind}:${e.path}`}>
            <ExtensionCard entry={e} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function matching(entries: ExtensionEntry[], filter: string): ExtensionEntry[] {
  const q = filter.trim().toLowerCase();
  if (q === "") return entries;
  return entries.filter((e) =>
    [
      e.name,
      e.description,
      e.status,
      e.source,
      e.kind,
      ...e.hooks.map((h) => h.event),
      ...e.commands,
      ...e.skills,
      ...e.agents,
      ...e.mcpServers,
    ].some((s) => s.toLowerCase().includes(q)),
  );
}
