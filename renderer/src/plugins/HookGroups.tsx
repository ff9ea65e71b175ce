/** A plugin's hooks, grouped by when they run in a turn. */
import { hooksByPhase } from "./format.ts";

export function HookGroups({ hooks, fired }: { hooks: string[]; fired: string[] }) {
  return (
    <ul className="hook-groups">
      {hooksByPhase(hooks).map((group) => (
        <li key={group.label}>
          <span className="hook-phase">{group.label}</span>
          <span className="chips">
            {group.hooks.map((h) => (
              <code key={h} className="chip chip-code">
                {h}
                {fired.includes(h) ? <span className="chip-note"> · fired</span> : null}
              </code>
            ))}
          </span>
        </li>
      ))}
    </ul>
  );
}
