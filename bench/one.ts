/**
 * Runs one benchmark group and prints its figures as JSON on stdout. bench/run.ts starts one
 * process per group, so no group measures another's leftover heap or JIT state.
 */
import "../e2e/support/use-serve-target.ts";
import { chatRenderFigures } from "./chat-render-bench.ts";
import { editorSaveFigures } from "./editor-save-bench.ts";
import { chatSessionFigures } from "./chat-session-figures.ts";
import { benchPluginLoad } from "./loader-bench.ts";
import { benchMcpCall } from "./mcp-bench.ts";
import { benchPacks } from "./packs-bench.ts";
import { benchPlugins } from "./plugins-bench.ts";
import { benchProviderParsing } from "./providers-bench.ts";
import { benchHookDispatch } from "./sandbox-bench.ts";
import { benchColdEntries } from "./cold-entries-bench.ts";
import { benchSessionLoad } from "./sessions-bench.ts";
import { benchTurnOverhead } from "./turn-bench.ts";
import { benchMarkdownListing } from "./markdown-bench.ts";
import { benchLocal } from "./local-bench.ts";
import { benchHooks } from "./hooks-bench.ts";
import { benchEcosystem } from "./ecosystem-bench.ts";

import type { Figure } from "./figure.ts";

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

export const GROUPS: Record<string, () => Promise<Figure[]>> = {
  providers: () => benchProviderParsing(),
  sessions: async () => {
    const s = await benchSessionLoad();
    return [
      {
        name: `session load (${s.messages.toLocaleString("en")} messages)`,
        value: round(s.ms, 1),
        unit: "ms (median)",
        baseline: {
          name: "raw readFile + JSON.parse per line",
          value: round(s.baselineMs, 1),
          unit: "ms",
        },
        ratio: round(s.ms / s.baselineMs, 2),
      },
      {
        name: `session history (${s.messages.toLocaleString("en")} messages)`,
        value: round(s.historyMs, 1),
        unit: "ms (median)",
        baseline: {
          name: "raw readFile + JSON.parse per line",
          value: round(s.baselineMs, 1),
          unit: "ms",
        },
        ratio: round(s.historyMs / s.baselineMs, 2),
      },
    ];
  },
  hooks: () => benchHooks(),
  turn: async () => {
    const t = await benchTurnOverhead();
    return [
      {
        name: "agent turn, 3 tool calls + 2,000-token answer, 10 plugin isolates",
        value: round(t.engineMs, 2),
        unit: "ms (median)",
        baseline: { name: "minimal raw loop", value: round(t.rawMs, 2), unit: "ms" },
        ratio: round(t.ratio, 2),
      },
    ];
  },
  sandbox: async () => [...(await benchHookDispatch()), ...(await benchColdEntries())],
  plugins: () => benchPlugins(),
  loader: () => benchPluginLoad(),
  mcp: () => benchMcpCall(),
  packs: () => benchPacks(),
  "chat-render": () => chatRenderFigures(),
  "editor-save": () => editorSaveFigures(),
  "chat-session": () => chatSessionFigures(),
  markdown: async () => {
    const m = await benchMarkdownListing();
    return [
      {
        name: "skills and commands listed (50 + 20), added per model call",
        value: round(m.withMs - m.baseMs, 4),
        unit: "ms (median)",
        baseline: { name: "the same call with none", value: round(m.baseMs, 4), unit: "ms" },
      },
      {
        name: "skill listing rebuilt after a change, whole call",
        value: round(m.rebuildMs, 3),
        unit: "ms (median)",
      },
    ];
  },
  local: () => benchLocal(),
  ecosystem: () => benchEcosystem(),
};

if (import.meta.main) {
  const name = process.argv[2];
  const group = GROUPS[name];
  if (!group) {
    console.error(`unknown benchmark group "${name}"; one of ${Object.keys(GROUPS).join(", ")}`);
    process.exit(2);
  }
  process.stdout.write(`${JSON.stringify(await group())}\n`);
}
