/** Commands every session has. */
import type { CommandRegistry } from "./registry.ts";
import type { SlashCommand } from "./types.ts";

function helpCommand(registry: CommandRegistry): SlashCommand {
  return {
    name: "help",
    description: "List the slash commands.",
    source: "builtin",
    async run() {
      const lines = registry
        .list()
        .map((c) => `/${c.name}${c.hints ? ` ${c.hints}` : ""} — ${c.description}`);
      return { output: lines.join("\n") };
    },
  };
}

const compact: SlashCommand = {
  name: "compact",
  description: "Summarise older messages to free context.",
  source: "builtin",
  async run(_args, env) {
    const r = await env.session.compact();
    if (r.skipped) return { output: "Compaction was skipped by a plugin." };
    if (!r.success)
      return { output: "Nothing was compacted (too little history, or the summary failed)." };
    return {
      output: `Compacted ${r.preMessages} messages into ${r.postMessages} (summary: ${r.summaryLength} chars).`,
    };
  },
};

const agent: SlashCommand = {
  name: "agent",
  description: "Show the agents, or switch to one.",
  hints: "[name]",
  source: "builtin",
  async run(args, env) {
    const current = env.session.state.agent.name;
    if (args === "") {
      return {
        output: env
          .agentNames()
          .map((n) => (n === current ? `* ${n}` : `  ${n}`))
          .join("\n"),
      };
    }
    await env.session.switchAgent(args, "user");
    return { output: `Switched to agent "${args}".` };
  },
};

const tools: SlashCommand = {
  name: "tools",
  description: "List the tools available to the current agent.",
  source: "builtin",
  async run(_args, env) {
    return { output: env.toolNames().join("\n") };
  },
};

const stats: SlashCommand = {
  name: "stats",
  description: "Show session statistics.",
  source: "builtin",
  async run(_args, env) {
    const s = env.session.state.stats;
    const top = s.topTools
      .slice(0, 5)
      .map((t) => `${t.name}×${t.count}`)
      .join(", ");
    return {
      output: [
        `turns ${s.turns}, iterations ${s.iterations}, tool calls ${s.tools.calls} (${s.tools.errors} failed)`,
        `tokens in ${s.tokens.in}, out ${s.tokens.out}, compactions ${s.compactions}`,
        top ? `top tools: ${top}` : "",
      ]
        .filter(Boolean)
        .join("\n"),
    };
  },
};

export function registerBuiltinCommands(registry: CommandRegistry): void {
  for (const c of [helpCommand(registry), compact, agent, tools, stats]) registry.register(c);
}
