/**
 * CLI-tool runner plugins as `islet plugins list|show` print them (code plugins are the
 * runtime's; on-demand code plugins are listed there too).
 */
import type { ActivationEntry } from "../extensions/activation/activatable.ts";

function statusText(e: ActivationEntry): string {
  const reason = e.reason ? ` — ${e.reason}` : "";
  if (e.status === "inactive") return `inactive (\`/plugin activate ${e.name}\` in a chat)`;
  return `${e.status}${reason}`;
}

export function runnerPluginsText(entries: readonly ActivationEntry[]): string {
  const runners = entries.filter((e) => e.kind === "runner");
  if (runners.length === 0) return "";
  const lines = ["CLI-tool runner plugins:"];
  for (const e of runners) {
    lines.push(`  ${e.name}: ${statusText(e)}`);
    for (const d of e.consentDetails) lines.push(`    ${d}`);
  }
  return `${lines.join("\n")}\n`;
}

export function runnerPluginText(e: ActivationEntry): string {
  return [
    `${e.name} (CLI-tool runner plugin)`,
    `  ${e.description}`,
    `  status: ${statusText(e)}`,
    `  manifest: ${e.manifestFile}`,
    ...e.consentDetails.map((d) => `  ${d}`),
    "",
  ].join("\n");
}
