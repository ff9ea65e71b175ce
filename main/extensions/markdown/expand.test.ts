/** Turning a command's body into the prompt: arguments, shell lines, @file includes. */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { expandBody, shellLines, splitArgs, substituteArguments } from "./expand.ts";

test("arguments: $ARGUMENTS whole, $N and $ARGUMENTS[N] 0-based with shell quoting (a missing one left as written), named ones", () => {
  assert.deepEqual(splitArgs(`a "b c" 'd e' f\\ g`), ["a", "b c", "d e", "f g"]);
  assert.equal(
    substituteArguments("Fix #$0 in $1 ($ARGUMENTS) [$ARGUMENTS[1]] $2.", `12 "src/a b.ts"`),
    `Fix #12 in src/a b.ts (12 "src/a b.ts") [src/a b.ts] $2.`,
  );
  assert.equal(
    substituteArguments("Summarise.", "the README"),
    "Summarise.\n\nARGUMENTS: the README",
  );
  assert.equal(substituteArguments("Summarise.", ""), "Summarise.");
  assert.equal(
    substituteArguments("From $from to $to, $HOME", "a b", ["from", "to"]),
    "From a to b, $HOME",
  );
});

test("!`cmd` written inside an ordinary code block is an example: it is neither run nor listed for consent", async () => {
  const root = await mkdtemp(path.join(tmpdir(), "islet-expand-"));
  try {
    // In the shape of plugin-dev's command-development skill: examples of commands in fences.
    const body = [
      "Branch: !`git branch --show-current`",
      "An example command file:",
      "```markdown",
      "---",
      "description: Run the tests",
      "---",
      "Results: !`npm test`",
      "```",
      "~~~~",
      "!`gh pr view` inside a tilde fence, with ``` inside it",
      "```",
      "~~~~",
      "```!",
      "ls",
      "```",
      "    ```",
      "indented four spaces: not a fence, so !`date` runs",
      "Unclosed:",
      "```sh",
      "!`rm -rf build`",
    ].join("\n");
    assert.deepEqual(shellLines(body), ["git branch --show-current", "ls", "date"]);
    const ran: string[] = [];
    const out = await expandBody(body, "", {
      workdir: root,
      shell: async (c) => {
        ran.push(c);
        return `<${c}>`;
      },
    });
    assert.deepEqual(ran, ["git branch --show-current", "ls", "date"]);
    assert.match(out, /Results: !`npm test`/);
    assert.match(out, /!`gh pr view`/);
    assert.match(out, /!`rm -rf build`/);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test("!`cmd` lines and ```! blocks go to the shell in order; a refusal fails the expansion", async () => {
  const root = await mkdtemp(path.join(tmpdir(), "islet-expand-"));
  try {
    const ran: string[] = [];
    const shell = async (c: string): Promise<string> => {
      ran.push(c);
      return `<${c}>\n`;
    };
    const out = await expandBody("Status: !`git status --short`\n```!\nls $0\n```\nDone.", "src", {
      workdir: root,
      shell,
    });
    assert.deepEqual(ran, ["git status --short", "ls src"]);
    assert.equal(out, "Status: <git status --short>\n<ls src>\nDone.");
    await assert.rejects(
      expandBody("x !`rm -rf /`", "", {
        workdir: root,
        shell: async () => {
          throw new Error("!`rm -rf /` was not run: The user denied Bash");
        },
      }),
      /The user denied Bash/,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test("@file attaches files inside the workspace; paths and links that leave it are refused", async () => {
  const root = await mkdtemp(path.join(tmpdir(), "islet-expand-"));
  const work = path.join(root, "work");
  try {
    await mkdir(path.join(work, "src"), { recursive: true });
    await writeFile(path.join(work, "src", "a.ts"), "export const a = 1;\n");
    await writeFile(path.join(root, "secret.txt"), "s3cret");
    await symlink(path.join(root, "secret.txt"), path.join(work, "link.txt"));
    const shell = async (): Promise<string> => "";
    const out = await expandBody("Explain @src/a.ts, ignore @someone and a@b.c.", "", {
      workdir: work,
      shell,
    });
    assert.match(out, /<file path="src\/a\.ts">\nexport const a = 1;\n\n<\/file>/);
    assert.doesNotMatch(out, /someone">/);
    for (const ref of ["@../secret.txt", `@${path.join(root, "secret.txt")}`, "@link.txt"]) {
      await assert.rejects(
        expandBody(`Read ${ref}`, "", { workdir: work, shell }),
        /outside the workspace/,
        ref,
      );
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
