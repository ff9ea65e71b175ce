/**
 * Screenshots of the chat with a realistic conversation (Markdown, code, thinking, a plan, tool
 * cards, a plugin notice and injected message, the hook timeline open), light and dark, into
 * docs/screenshots/. Needs `npm run build` and Chromium:
 *
 *   node --no-node-snapshot scripts/screenshots/chat.ts
 */
import "../../e2e/support/use-serve-target.ts";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { ROOT } from "../../e2e/support/browser.ts";
import { startChatRig } from "../../e2e/support/chat.ts";

const OUT = path.join(ROOT, "docs", "screenshots");

const PLUGINS = {
  "project-notes": {
    yaml: 'description: "Reminds the model of the project conventions"\nonce: true\n',
    code: `export function beforeChat() {
  return { message: "This project uses pnpm and Node 24; tests live next to the code.", role: "user" };
}`,
  },
  "git-guard": {
    yaml: 'description: "Warns before commands that rewrite history"\n',
    code: `export function beforeToolExecution(ctx) {
  return { notice: "checked " + ctx.toolName + ": nothing rewrites git history" };
}`,
  },
  "release-mode": {
    yaml: 'description: "Only in release weeks"\ncondition: "turns_gt:50"\n',
    code: `export function beforeChat() { return { notice: "release week" }; }`,
  },
};

const FINAL = `## What I found

The test runner reads **\`scripts/test.js\`**; the failing case is the date parser, which assumes
UTC. Two changes fix it:

1. Parse with an explicit offset.
2. Pin the test's time zone.

\`\`\`ts
export function parseDay(text: string): Date {
  const [y, m, d] = text.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d)); // never the local zone
}
\`\`\`

Run \`pnpm test\` again and the suite passes.`;

async function shoot(colorScheme: "light" | "dark"): Promise<void> {
  const rig = await startChatRig({
    plugins: PLUGINS,
    colorScheme,
    viewport: { width: 1360, height: 1300 },
  });
  try {
    const { page, model } = rig;
    await mkdir(path.join(rig.workdir, "src"), { recursive: true });
    await writeFile(
      path.join(rig.workdir, "src", "dates.ts"),
      "export function parseDay(text: string): Date {\n  return new Date(text);\n}\n",
    );
    await writeFile(path.join(rig.workdir, "src", "dates.test.ts"), "// parseDay tests\n");
    model.push(
      {
        thinking: [
          "The user says a test fails only on some machines. ",
          "That smells like time zones. I should plan, then look at the test files first.",
        ],
        text: ["Let me plan this and look at the tests."],
        toolCalls: [
          {
            name: "TodoWrite",
            arguments: {
              todos: [
                { content: "Find the failing test", status: "completed" },
                { content: "Fix the date parser", status: "in_progress" },
                { content: "Run the whole suite", status: "pending" },
              ],
            },
          },
        ],
        usage: { input: 5200, output: 140 },
      },
      {
        toolCalls: [{ name: "Bash", arguments: { command: "ls src && grep -rn parseDay src" } }],
        usage: { input: 5600, output: 40 },
      },
      { text: [FINAL], usage: { input: 6900, output: 260 } },
    );
    await rig.composer().fill("The date tests fail on my colleague's laptop but not on mine. Why?");
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Allow", exact: true }).click({ timeout: 20_000 });
    await page.getByRole("button", { name: "Send" }).waitFor({ timeout: 20_000 });
    const transcript = page.getByRole("region", { name: "Conversation" });
    await transcript
      .getByRole("button", { name: /hook call/ })
      .last()
      .click();
    await transcript.getByRole("button", { name: /^Show \d+ skipped/ }).click();
    await transcript.getByRole("button", { name: /^Thought/ }).click();
    await transcript.evaluate((el) => (el.scrollTop = el.scrollHeight));
    await page.mouse.move(0, 0);
    await page.waitForTimeout(300);
    await mkdir(OUT, { recursive: true });
    await page.screenshot({ path: path.join(OUT, `chat-${colorScheme}.png`) });
    if (process.env.SHOT_TOP) {
      await transcript.evaluate((el) => (el.scrollTop = 0));
      await page.waitForTimeout(200);
      await page.screenshot({ path: `/tmp/chat-top-${colorScheme}.png` });
    }
    if (rig.problems.length) console.error(rig.problems.join("\n"));
  } finally {
    await rig.close();
  }
}

await shoot("light");
await shoot("dark");
console.log(`wrote ${OUT}/chat-light.png and chat-dark.png`);
