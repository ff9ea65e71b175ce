/**
 * A big, self-contained extension catalog for prompt-budget tests: 300 Claude Code plugins in the
 * marketplaces' shapes (a skill each, an agent in every second, a command in every third) plus
 * one with an invoice skill, and three code plugins with one tool each. Words are chosen so the
 * invoice skill and the tools match their prompts and nothing else does.
 */
import type { PluginFiles } from "../testing.ts";

const DOMAINS = (
  "kubernetes terraform postgres redis react django rails graphql docker ansible kafka spark " +
  "pandas rust golang swift kotlin flutter unity blender figma jira slack github gitlab jenkins " +
  "sentry grafana prometheus elastic"
).split(" ");
const ACTS = "review debug migrate optimize document test deploy monitor secure refactor".split(
  " ",
);

/** 300 Claude Code plugins in the shapes marketplaces use, plus one for invoices. */
export function claudePlugins(): Record<string, string> {
  const files: Record<string, string> = {};
  const plugin = (name: string, parts: Record<string, string>): void => {
    files[`plugins/${name}/.claude-plugin/plugin.json`] = JSON.stringify({
      name,
      version: "1.0.0",
      description: `${name} for Claude Code`,
    });
    for (const [rel, text] of Object.entries(parts)) files[`plugins/${name}/${rel}`] = text;
  };
  for (let i = 0; i < 300; i++) {
    const domain = DOMAINS[i % DOMAINS.length];
    const act = ACTS[Math.floor(i / DOMAINS.length) % ACTS.length];
    const parts: Record<string, string> = {
      [`skills/${act}-${domain}/SKILL.md`]:
        `---\nname: ${act}-${domain}\ndescription: ${act} ${domain} projects step by step, ` +
        `with the checks a ${domain} expert makes\nwhen_to_use: When asked to ${act} ${domain} ` +
        `code or configuration\n---\nSteps to ${act} ${domain}.\n`,
    };
    if (i % 2 === 0)
      parts[`agents/${domain}-${act}-expert.md`] =
        `---\nname: ${domain}-${act}-expert\ndescription: Specialist that can ${act} ${domain} ` +
        `systems end to end; use proactively for ${domain} work\nmodel: inherit\n---\n` +
        `You ${act} ${domain}.\n`;
    if (i % 3 === 0)
      parts[`commands/${act}-${domain}-now.md`] =
        `---\ndescription: ${act} the ${domain} setup now\nallowed-tools: Read, Grep\n---\n` +
        `Please ${act} the ${domain} setup.\n`;
    plugin(`${domain}-${act}`, parts);
  }
  plugin("billing-tools", {
    "skills/invoice-pdf/SKILL.md":
      "---\nname: invoice-pdf\ndescription: Extract line items and totals from PDF invoices " +
      "into a CSV table\nwhen_to_use: When the user shares an invoice or receipt PDF\n---\n" +
      "Read the PDF with the bundled script, then write line items as CSV.\n",
    "commands/convert-money.md":
      "---\ndescription: Convert an amount with the currency tool\n" +
      "allowed-tools: CurrencyConvert\n---\nConvert $ARGUMENTS.\n",
  });
  return files;
}

/** A code plugin with one tool. */
export function toolPlugin(name: string, description: string, answer: string): PluginFiles {
  return {
    yaml: `description: "${description}"\n`,
    code:
      `export function schema() {\n  return { name: ${JSON.stringify(name)}, description: ` +
      `${JSON.stringify(description)}, parameters: { type: "object", properties: { text: ` +
      `{ type: "string", description: "What to work on" } }, required: ["text"] } };\n}\n` +
      `export async function execute(_ctx, args) { return ${JSON.stringify(answer)} + args.text; }\n`,
  };
}

export const TOOL_PLUGINS: Record<string, PluginFiles> = {
  weather: toolPlugin("WeatherNow", "Current weather and the forecast for a city", "sunny in "),
  currency: toolPlugin(
    "CurrencyConvert",
    "Convert an amount between currencies at today's exchange rate",
    "converted: ",
  ),
  translate: toolPlugin("Translate", "Translate text between human languages", "translated: "),
};
