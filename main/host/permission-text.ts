/** A permission request as one line a person reads (terminal prompt, dialog, notice). */
import type { PermissionItem } from "./questions.ts";

/** One line per item, as a terminal prompt or a notice shows it. */
export function describePermission(item: PermissionItem): string {
  switch (item.kind) {
    case "network":
      return `network ${item.target} — ${item.reason}`;
    case "path":
      return `${item.write ? "read and write" : "read"} ${item.target} — ${item.reason}`;
    case "exec":
      return item.target
        ? `run the command \`${item.target.replace(/^bash:/, "")}\` — ${item.reason}`
        : `run programs (exec) — ${item.reason}`;
    case "env":
      return `environment variable ${item.target} — ${item.reason}`;
    case "wasm":
      return `WebAssembly — ${item.reason}`;
    case "override":
      return `replaces the tool of the same name, built-in tools included (override: true) — ${item.reason}`;
    case "rewrite":
      return `rewrite the arguments of ${item.target} calls (they then run under its usual approval) — ${item.reason}`;
  }
}
