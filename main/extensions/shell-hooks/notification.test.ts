/**
 * Notification hooks: when a person is asked to approve a tool call, the user's Notification
 * commands run with Claude's fields (matcher on notification_type); automatic ports (--yes,
 * nobody) ask no person and notify nobody.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { resolveHomes } from "../../config/homes.ts";
import { Contributions } from "../../contributions/contributions.ts";
import { DeclarativeExtensions } from "../declarative.ts";
import type { QuestionPort } from "../../host/questions.ts";
import { tempDir, type TempDir } from "../../code-plugins/loader/testing.ts";
import { formatProblem } from "../../host/problem.ts";

async function waitFor(file: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (existsSync(file)) {
      const text = readFileSync(file, "utf8");
      if (text.endsWith("}")) return text;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${file} was not written`);
}

describe("Notification hooks", () => {
  let dirs: TempDir;
  let declarative: DeclarativeExtensions;

  before(async () => {
    dirs = tempDir("islet-notify-");
    dirs.write({
      "home/config/hooks/notify.yaml": `
Notification:
  - matcher: permission_prompt
    hooks:
      - command: 'cat > "$CLAUDE_PROJECT_DIR/notified.json"'
  - matcher: idle_prompt
    hooks:
      - command: 'touch "$CLAUDE_PROJECT_DIR/idle"'
`,
      "work/.keep": "",
    });
    const homes = resolveHomes({ home: dirs.path("home"), workdir: dirs.path("work") });
    const warnings: string[] = [];
    declarative = new DeclarativeExtensions(new Contributions(), {
      homes,
      trustedProject: false,
      warn: (p) => warnings.push(formatProblem(p)),
    });
    await declarative.load();
    assert.deepEqual(warnings, []);
  });

  after(async () => {
    await declarative.dispose();
    dirs.remove();
  });

  it("runs when a person is asked to approve a tool call, with Claude's fields", async () => {
    const asked: string[] = [];
    const person: QuestionPort = {
      ask: async (q) => {
        asked.push(q.kind);
        return "allow" as never;
      },
    };
    const port = declarative.notifying(person, "s-1", dirs.path("work"))!;
    const answer = await port.ask({
      kind: "approval",
      tool: "Bash",
      arguments: { command: "ls" },
      workdir: dirs.path("work"),
    });
    assert.equal(answer, "allow");
    assert.deepEqual(asked, ["approval"]);
    const input = JSON.parse(await waitFor(dirs.path("work/notified.json"))) as Record<
      string,
      unknown
    >;
    assert.equal(input.hook_event_name, "Notification");
    assert.equal(input.notification_type, "permission_prompt");
    assert.equal(input.message, "Islet needs your permission to use Bash");
    assert.equal(input.session_id, "s-1");
    assert.equal(
      existsSync(dirs.path("work/idle")),
      false,
      "the idle_prompt matcher did not match",
    );
  });

  it("leaves automatic ports alone: nobody is asked, nobody is notified", () => {
    const automatic: QuestionPort = { ask: async () => "deny" as never, automatic: true };
    assert.equal(declarative.notifying(automatic, "s-2", dirs.path("work")), automatic);
  });
});
