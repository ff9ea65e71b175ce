/**
 * The plugin editor in Chromium against a real `islet serve` and a loopback fake OpenAI server:
 * open a plugin, change it, save, and the next request to the model changes; a syntax error is
 * marked at its line while the old version keeps serving; a new plugin from each template acts on
 * the next turn; replay shows the diff. Turns go through the bridge's WebSocket (not the chat UI).
 * Monaco makes no outside request; axe finds no serious problem in light or dark.
 * ISLET_SCREENSHOTS=DIR saves DIR/editor-*.png and replay-*.png.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, afterEach, before, describe, it } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { startFakeOpenAI, type FakeServer } from "../main/providers/testing/index.ts";
import { connectBridgeSocket, type BridgeSocket } from "./support/bridge-client.ts";
import { seriousViolations } from "./support/page.ts";
import {
  BUILT_PAGE,
  CHROMIUM_ARGS,
  expectText,
  findChromium,
  startServe,
  type Serve,
} from "./support/browser.ts";
import { serveOnly } from "./support/target.ts";

const MONACO_SURFACES = [".monaco-editor", ".monaco-diff-editor"];

const browserBinary = findChromium();
const skip = serveOnly("drives turns through islet serve's WebSocket (the bridge client)");
const SHOTS = process.env["ISLET_SCREENSHOTS"] ?? null;

const greeter = (word: string) => `import type { BeforeChatContext, Result } from "@islet/sdk";

export function beforeChat(ctx: BeforeChatContext): Result {
  console.log(\`turn \${ctx.stats.turns}: asking for ${word}\`);
  return { request: { appendSystem: "Say ${word}." } };
}
`;

interface Sent {
  messages: { role: string; content: string }[];
  tools?: { function: { name: string } }[];
}

describe("plugin editor", { skip, timeout: 180_000 }, () => {
  let dir: string;
  let model: FakeServer;
  let serve: Serve;
  let browser: Browser;
  let page: Page;
  let bridge: BridgeSocket;
  let conversation: string;
  const problems: string[] = [];

  const lastRequest = () => model.chatRequests.at(-1)?.body as Sent;
  const lastSystem = () => lastRequest().messages.find((m) => m.role === "system")?.content ?? "";

  /** One turn over the bridge; tool calls the model makes are approved. */
  async function turn(text: string, ...answers: Parameters<FakeServer["push"]>): Promise<unknown> {
    model.push(...(answers.length > 0 ? answers : [{ text: ["ok"] }]));
    const seen = bridge.events.length;
    const approve = setInterval(() => {
      for (const e of bridge.events.slice(seen)) {
        const q = e.payload as { id: string; question: { kind: string } };
        if (e.event === "question/asked" && !(q as { done?: boolean }).done) {
          (q as { done?: boolean }).done = true;
          void bridge.call("question/answer", { id: q.id, kind: "approval", answer: "allow" });
        }
      }
    }, 20);
    try {
      return await bridge.stream("chat/send", { conversationId: conversation, text });
    } finally {
      clearInterval(approve);
    }
  }

  const status = () => page.locator(".status-line [role=status]");

  /** Replaces the open file's text in Monaco, as typing would. */
  async function replaceText(text: string): Promise<void> {
    await page.locator(".editor-code .monaco-editor .view-lines").click();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.press("Delete");
    // Pasted, as a person would bring code in (typing would auto-indent on top of the text's own).
    await page.evaluate((t) => navigator.clipboard.writeText(t), text);
    await page.keyboard.press("ControlOrMeta+V");
    // Pasting is asynchronous: wait until the editor shows the text's longest line.
    const longest = text
      .split("\n")
      .map((l) => l.trim())
      .reduce((a, b) => (b.length > a.length ? b : a));
    await page.waitForFunction(
      (line) =>
        (document.querySelector(".editor-code .view-lines") as HTMLElement | null)?.innerText
          .replace(/\u00a0/g, " ")
          .includes(line) ?? false,
      longest,
    );
  }

  async function openPlugin(name: string): Promise<void> {
    await page.getByRole("button", { name: new RegExp(`^${name}\\b`) }).click();
    await page.locator(".editor-code .monaco-editor").waitFor();
  }

  async function shot(name: string, scheme: "light" | "dark"): Promise<void> {
    if (!SHOTS) return;
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${scheme}.png`) });
  }

  before(async () => {
    assert.ok(existsSync(BUILT_PAGE), `${BUILT_PAGE} is missing: run \`npm run build\` first`);
    dir = await mkdtemp(path.join(tmpdir(), "islet-editor-e2e-"));
    const home = path.join(dir, "home");
    const work = path.join(dir, "project");
    await mkdir(path.join(home, "plugins", "greeter"), { recursive: true });
    await mkdir(work, { recursive: true });
    await writeFile(
      path.join(home, "plugins", "greeter", "plugin.yaml"),
      'description: "Asks the model to greet"\nsdk: "0.1.0"\nconfig:\n  # shown in the settings form\n  greeting: hello\n  loud: false\n',
    );
    await writeFile(path.join(home, "plugins", "greeter", "index.ts"), greeter("hello"));
    await writeFile(path.join(work, "long.txt"), "word ".repeat(300));
    model = await startFakeOpenAI([]);
    const launched = chromium.launch({
      executablePath: (browserBinary as { path: string }).path,
      args: CHROMIUM_ARGS,
    });
    [serve, browser] = await Promise.all([
      startServe([
        "--home",
        home,
        "--workdir",
        work,
        "--provider",
        "openai-compatible",
        "--base-url",
        model.url,
        "--model",
        "fake-model",
      ]),
      launched,
    ]);
    bridge = await connectBridgeSocket(serve.url);
    conversation = ((await bridge.call("chat/open", {})) as { conversationId: string })
      .conversationId;
    const context = await browser.newContext({ viewport: { width: 1360, height: 860 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: serve.origin });
    await context.route(
      (url) => !url.href.startsWith("http://127.0.0.1") && !url.href.startsWith("ws://127.0.0.1"),
      (route) => {
        problems.push(`outside request: ${route.request().url()}`);
        return route.abort();
      },
    );
    page = await context.newPage();
    await page.addInitScript(() =>
      document.addEventListener("securitypolicyviolation", (e) =>
        console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`),
      ),
    );
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning")
        problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message} ${e.stack}`));
    await page.goto(serve.url);
    await turn("hello there");
    // The app opens on the chat; the editor is reached from the plugins' cards.
    await page.getByRole("button", { name: "Plugins" }).click();
  });

  // E2E_FAILURES=DIR keeps a screenshot of the page after each failed test.
  afterEach(async (t) => {
    const keep = process.env.E2E_FAILURES;
    if (keep && (t as { passed?: boolean }).passed === false)
      await page.screenshot({ path: path.join(keep, `${t.name.slice(0, 40)}.png`) });
  });

  after(async () => {
    bridge?.close();
    await browser?.close();
    await serve?.stop();
    await model?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("opens a plugin from its card; the SDK's types complete in Monaco", async () => {
    await page.getByRole("button", { name: "Edit greeter" }).click();
    await page.locator(".editor-code .monaco-editor").waitFor();
    await expectText(page.locator(".tabs"), "index.ts");
    await expectText(page.locator(".editor-code"), "appendSystem");
    // Completion from @islet/sdk's declarations: ctx. offers the Context fields.
    await page.locator(".editor-code .monaco-editor .view-lines").click();
    await page.keyboard.press("ControlOrMeta+End");
    await page.keyboard.insertText(
      "\nexport function later(ctx: BeforeChatContext) { return ctx.tok",
    );
    await page.keyboard.press("ControlOrMeta+Space");
    await expectText(page.locator(".suggest-widget .monaco-list-rows"), "tokens", 20_000);
    await page.keyboard.press("Escape");
    await expectText(page.locator(".tabs"), "unsaved");
  });

  it("asks before leaving with unsaved changes; Cancel stays", async () => {
    await page.getByRole("button", { name: "Plugins" }).click();
    const dialog = page.getByRole("dialog", { name: /Save changes before leaving/ });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expectText(page.locator("#editor-title"), "Plugin editor");
  });

  it("save reloads the plugin and the next request to the model changes", async () => {
    await replaceText(greeter("goodbye"));
    await page.keyboard.press("ControlOrMeta+S");
    await expectText(status(), /reloaded in \d+ ms/, 15_000);
    await turn("and now?");
    assert.match(lastSystem(), /Say goodbye\./);
    assert.doesNotMatch(lastSystem(), /Say hello\./);
    await page.getByRole("tab", { name: "Log" }).click();
    await expectText(page.locator(".log-lines"), "asking for goodbye");
  });

  it("a syntax error is marked at its line while the old version keeps serving", async () => {
    await replaceText(greeter("oops").replace("return {", "return {{"));
    await page.keyboard.press("ControlOrMeta+S");
    await expectText(status(), /did not load — the previous version keeps serving/, 15_000);
    await page.locator(".editor-code .squiggly-error").first().waitFor();
    await page.getByRole("tab", { name: /Problems \(\d+\)/ }).click();
    await expectText(page.locator(".panel-problems"), /index\.ts:5:\d+/);
    await turn("still there?");
    assert.match(lastSystem(), /Say goodbye\./, "the last good version still serves");
    await page.getByRole("tab", { name: "Log" }).click();
    await expectText(page.locator(".log-lines"), "asking for goodbye");
    await shot("editor", "light");
    await shot("editor", "dark");
    await page.emulateMedia({ colorScheme: "light" });
    await replaceText(greeter("welcome"));
    await page.keyboard.press("ControlOrMeta+S");
    await expectText(status(), /reloaded in \d+ ms/, 15_000);
  });

  it("replay shows what the model would have received before and after, without calling it", async () => {
    const before = model.chatRequests.length;
    await page.getByRole("button", { name: "Try on a recorded turn" }).click();
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expectText(page.locator(".replay-note"), /system prompt changed/, 20_000);
    await page.locator(".replay-diff .monaco-diff-editor").waitFor();
    // The diff scrolls to its first change: both sides show the appended system text.
    // (Monaco draws spaces as no-break spaces, which \s matches.)
    await expectText(page.locator(".replay-diff .view-lines").first(), /Say\sgoodbye\./);
    await expectText(page.locator(".replay-diff .view-lines").last(), /Say\swelcome\./);
    assert.equal(model.chatRequests.length, before, "no model call");
    await shot("replay", "light");
    await shot("replay", "dark");
    await page.emulateMedia({ colorScheme: "light" });
    await page.getByRole("button", { name: "Close the replay" }).click();
  });

  async function newPlugin(template: RegExp, name: string): Promise<void> {
    await page.getByRole("button", { name: "New plugin" }).click();
    const dialog = page.getByRole("dialog", { name: "New plugin" });
    await dialog.getByRole("radio", { name: template }).check();
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByRole("button", { name: "Create plugin" }).click();
    await expectText(status(), new RegExp(`Created ${name}; loaded in \\d+ ms`), 15_000);
    await expectText(page.locator(".tabs"), "index.ts");
  }

  it("a new plugin from each template acts on the next turn", async () => {
    await newPlugin(/beforeChat injector/, "plain-english");
    await turn("explain");
    assert.match(lastSystem(), /Answer in plain English and keep it short\./);

    await newPlugin(/^Tool/, "word-counter");
    await turn(
      "count",
      { toolCalls: [{ name: "WordCounter", arguments: { text: "one two three" } }] },
      { text: ["3"] },
    );
    assert.ok(lastRequest().tools?.some((t) => t.function.name === "WordCounter"));
    assert.match(
      lastRequest().messages.findLast((m) => m.role === "tool")?.content ?? "",
      /3 words/,
    );

    await newPlugin(/Slash command/, "progress");
    const outcome = (await bridge.stream("chat/send", {
      conversationId: conversation,
      text: "/progress",
    })) as { command: { output: string } | null };
    assert.match(outcome.command?.output ?? "", /\d+ turns, \d+ tool calls/);

    await newPlugin(/afterToolExecution filter/, "output-cutter");
    // Its settings, through the generated form: cut outputs past 100 characters.
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.getByLabel("max_chars").fill("100");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expectText(page.locator(".config-actions"), "Saved; the plugin reloaded.", 15_000);
    await turn(
      "read it",
      { toolCalls: [{ name: "Read", arguments: { path: "long.txt" } }] },
      { text: ["done"] },
    );
    assert.match(
      lastRequest().messages.findLast((m) => m.role === "tool")?.content ?? "",
      /\[output-cutter: \d+ characters cut\]/,
    );
  });

  it("disables and enables a plugin from the editor", async () => {
    await openPlugin("greeter");
    const toggle = page.getByRole("switch", { name: "Enabled" });
    await toggle.uncheck();
    await expectText(status(), "Disabled greeter", 15_000);
    await turn("quiet?");
    assert.doesNotMatch(lastSystem(), /Say welcome\./);
    await toggle.check();
    await expectText(status(), "Enabled greeter", 15_000);
    await turn("back?");
    assert.match(lastSystem(), /Say welcome\./);
  });

  it("creates and deletes a file; deleting asks first", async () => {
    await page.getByRole("button", { name: "New file" }).click();
    await page.getByLabel("New file path").fill("notes.md");
    await page.keyboard.press("Enter");
    await expectText(status(), "Created notes.md", 15_000);
    await expectText(page.locator(".tree-root"), "notes.md");
    await expectText(page.locator(".tabs"), "notes.md");
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Delete notes.md?" });
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expectText(status(), "Deleted notes.md", 15_000);
    await page.waitForFunction(
      () => !document.querySelector(".tree-root")?.textContent?.includes("notes.md"),
    );
  });

  it("has no serious or critical accessibility problems in light or dark (axe-core)", async () => {
    const scans: [string, () => Promise<void>][] = [
      ["editor", async () => {}],
      [
        "new plugin dialog",
        async () => {
          await page.getByRole("button", { name: "New plugin" }).click();
          await page
            .getByRole("dialog", { name: "New plugin" })
            .getByRole("radio")
            .first()
            .waitFor();
        },
      ],
    ];
    for (const [screen, open] of scans) {
      await open();
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme });
        // Monaco's own editor surface is excluded: it is a third-party widget with its own
        // screen-reader mode (a hidden textarea and aria-live region), whose decorative layers
        // axe misreads; everything around it (tree, tabs, panels, dialogs) is scanned.
        const serious = await seriousViolations(page, { exclude: MONACO_SURFACES });
        assert.deepEqual(serious, [], `${screen}, ${colorScheme}: ${JSON.stringify(serious)}`);
      }
    }
    await page.keyboard.press("Escape");
    await page.emulateMedia({ colorScheme: "light" });
  });

  it("made no outside request, had no console error and no CSP violation", () => {
    assert.deepEqual(problems, []);
  });
});
