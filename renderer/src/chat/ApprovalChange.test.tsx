/** A Write or Patch approval shows the change, not its arguments as escaped JSON. */
import { cleanup, FakeBridge, fireEvent, renderWith, screen, within } from "../testing/render.tsx";
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { QuestionAsked } from "../../../main/bridge/contract.ts";
import type { FileChange } from "../../../main/host/questions.ts";
import { ApprovalBar } from "./ToolCard.tsx";

afterEach(cleanup);

function ask(tool: string, args: Record<string, unknown>, change?: FileChange) {
  // As the engine sends it: checked against the contract.
  const asked = QuestionAsked.parse({
    id: "q1",
    conversationId: "c1",
    question: {
      kind: "approval",
      tool,
      arguments: args,
      workdir: "/w",
      ...(change ? { change } : {}),
    },
  });
  const answers: unknown[] = [];
  renderWith(new FakeBridge(), <ApprovalBar asked={asked} onAnswer={(a) => answers.push(a)} />);
  return { group: within(screen.getByRole("group", { name: `Allow ${tool}?` })), answers };
}

const CONTENT = "# Notes\n\nFirst line\n";

describe("ApprovalBar with a file change", () => {
  it("a new file shows its content as text, not JSON with escaped newlines", () => {
    const { group } = ask(
      "Write",
      { path: "notes.md", content: CONTENT },
      { path: "notes.md", before: null, after: CONTENT },
    );
    group.getByText("New file");
    const text = group.getByLabelText("Content of notes.md");
    assert.equal(text.textContent, CONTENT);
    const whole = screen.getByRole("group", { name: "Allow Write?" }).textContent ?? "";
    assert.doesNotMatch(whole, /\\n|"content"/);
  });

  it("an existing file: the comparison, and the full new content one click away", () => {
    const { group } = ask(
      "Patch",
      { path: "a.txt", old_string: "two", new_string: "2" },
      { path: "a.txt", before: "one\ntwo\n", after: "one\n2\n" },
    );
    group.getByText("Changes to");
    assert.equal(group.queryByLabelText("New content of a.txt"), null);
    fireEvent.click(group.getByRole("button", { name: "Show the full new content" }));
    assert.equal(group.getByLabelText("New content of a.txt").textContent, "one\n2\n");
  });

  it("a binary or huge file says so with its size; a Patch that will not apply says so", () => {
    ask(
      "Write",
      { path: "logo.png", content: "x" },
      { path: "logo.png", before: null, after: null, note: "binary", size: 2048 },
    );
    screen.getByText("logo.png is a binary file (2 kB): it cannot be compared here.");
    cleanup();
    ask(
      "Patch",
      { path: "a.txt", old_string: "zzz", new_string: "y" },
      { path: "a.txt", before: "one\n", after: null, note: "not-found-in-file" },
    );
    screen.getByText(/not in the file exactly once: the call will fail and change nothing/);
  });

  it("other tools still show their arguments, and the buttons answer", () => {
    const { group, answers } = ask("Bash", { command: "ls -la" });
    group.getByText("ls -la");
    fireEvent.click(group.getByRole("button", { name: "Deny" }));
    assert.deepEqual(answers, [{ id: "q1", kind: "approval", answer: "deny" }]);
  });
});
