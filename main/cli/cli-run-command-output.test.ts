/** `islet run /COMMAND`: what a Markdown command prints, whether it ran a turn or only shows text. */
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import { islet, tempDirs } from "./testing/islet.ts";

test("a command that runs a turn prints the answer, not the prompt it sent; a shown one prints its text", async () => {
  const dirs = await tempDirs();
  const model = await startFakeOpenAI([{ text: ["Hello, Ann."] }, { text: ["Hi again."] }]);
  try {
    const commands = path.join(dirs.home, "config", "commands");
    await mkdir(commands, { recursive: true });
    await writeFile(path.join(commands, "greet.md"), "Greet $ARGUMENTS warmly, in one line.\n");
    await writeFile(
      path.join(commands, "card.md"),
      "---\nforward: false\n---\nThe card for $ARGUMENTS.\n",
    );
    const where = ["--home", dirs.home, "--workdir", dirs.workdir];
    const provider = ["--provider", "openai-compatible", "--base-url", model.url, "--model", "m"];

    const ran = await islet(["run", ...where, ...provider, "/greet", "Ann"]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(ran.stdout, "Hello, Ann.\n");
    const sent = model.chatRequests[0].body as { messages: { role: string; content: string }[] };
    assert.match(sent.messages.find((m) => m.role === "user")!.content, /Greet Ann warmly/);

    const json = await islet(["run", "--json", ...where, ...provider, "/greet", "Bo"]);
    assert.equal(json.code, 0, json.stderr);
    const events = json.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; text?: string });
    assert.equal(events.at(-1)?.type, "done");
    assert.ok(!events.some((e) => e.type === "notice" && /Greet Bo/.test(e.text ?? "")));

    // `forward: false`: no turn, the expanded text is the output.
    const shown = await islet(["run", ...where, "/card", "Cy"]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(shown.stdout, "The card for Cy.\n");
    assert.equal(model.chatRequests.length, 2);
  } finally {
    await model.close();
    await dirs.clean();
  }
});
