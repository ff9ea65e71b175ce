/** Loading commands and skills from folders: fields, namespaces, lenient parsing, one-line errors. */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { loadCommands } from "./commands.ts";
import { loadSkills } from "./skills.ts";
import { formatProblem } from "../../host/problem.ts";

async function tree(
  files: Record<string, string>,
): Promise<{ dir: string; clean(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), "islet-md-"));
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
  return { dir, clean: () => rm(dir, { recursive: true, force: true }) };
}

test("commands: Claude's frontmatter, sub-folders as labels, unknown fields warned, broken files one line each", async () => {
  const t = await tree({
    "review.md":
      "---\ndescription: Review a file\nargument-hint: <file> [focus]\nallowed-tools: Read, Bash(git diff:*)\nmodel: small\nhide-from-slash-command-tool: true\neffort: low\ncolour: red\n---\nReview $0.\n",
    "frontend/lint.md": "# Lint the UI\nRun the linter.\n",
    "bad-yaml.md": "---\n  bad: [\n---\nx",
    // Neither YAML nor `key: value` lines: read field by field, the odd line kept in its field.
    "odd-yaml.md": "---\ndescription: ok\n  bad: [\n---\nx",
    "fix.md": "---\ndescription: Fix: the issue\nargument-hint: [pr-number] [priority]\n---\nFix.",
    "hint.md": "---\nargument-hint: [file]\n---\nx",
    "bad-field.md": "---\nmodel: 7\n---\nx",
    "notes.txt": "not a command",
  });
  try {
    const { items, errors, warnings } = loadCommands(t.dir);
    assert.deepEqual(
      items.map((c) => c.name),
      ["fix", "lint", "hint", "odd-yaml", "review"],
    );
    assert.equal(items.find((c) => c.name === "odd-yaml")!.description, "ok\n  bad: [");
    // Not YAML, but what people write: read as `key: value` lines, as Claude Code does.
    const fix = items.find((c) => c.name === "fix")!;
    assert.equal(fix.description, "Fix: the issue");
    assert.equal(fix.argumentHint, "[pr-number] [priority]");
    assert.equal(items.find((c) => c.name === "hint")!.argumentHint, "[file]");
    const review = items.find((c) => c.name === "review")!;
    assert.equal(review.description, "Review a file");
    assert.equal(review.argumentHint, "<file> [focus]");
    assert.deepEqual(review.allowedTools, ["Read", "Bash(git diff:*)"]);
    assert.equal(review.model, "small");
    const lint = items.find((c) => c.name === "lint")!;
    assert.equal(lint.description, "Lint the UI", "the body's first line by default");
    assert.equal(lint.label, "frontend");
    assert.deepEqual(warnings.map(formatProblem), [
      `${path.join(t.dir, "odd-yaml.md")}: frontmatter is not YAML (Nested mappings are not allowed in compact mappings at line 1, column 14); read field by field`,
      `${path.join(t.dir, "review.md")}: colour: unknown field, ignored`,
    ]);
    assert.equal(errors.length, 2);
    assert.match(
      formatProblem(errors[0]),
      new RegExp(`^${path.join(t.dir, "bad-field.md")}: model: `),
    );
    assert.match(
      formatProblem(errors[1]),
      new RegExp(`^${path.join(t.dir, "bad-yaml.md")}: frontmatter: `),
    );
    for (const e of errors.map(formatProblem)) assert.doesNotMatch(e, /\n/, "one line");
  } finally {
    await t.clean();
  }
});

test("a namespace prefixes command and skill names", async () => {
  const t = await tree({
    "commands/deploy.md": "Deploy.",
    "skills/pdf/SKILL.md": "---\nname: pdf\ndescription: PDFs\n---\nUse pdftotext.",
  });
  try {
    const c = loadCommands(path.join(t.dir, "commands"), { namespace: "ops" }).items[0];
    assert.equal(c.name, "ops:deploy");
    assert.equal(c.bareName, "deploy");
    const s = loadSkills(path.join(t.dir, "skills"), { namespace: "docs" }).items[0];
    assert.equal(s.name, "docs:pdf");
  } finally {
    await t.clean();
  }
});

test("skills: NAME/SKILL.md with its folder and NAME.md; fields; a display name falls back to the folder; broken ones named and skipped", async () => {
  const t = await tree({
    "pdf/SKILL.md":
      "---\nname: pdf-tools\ndescription: Work with PDFs\nwhen_to_use: a PDF is mentioned\nallowed-tools: [Read, Bash]\narguments: [file]\ndisable-model-invocation: false\n---\nExtract $file.\n",
    "pdf/reference.md": "details",
    "haiku.md": "Write a haiku about $ARGUMENTS.",
    "folder-without-skill/readme.md": "not a skill",
    "broken/SKILL.md": "---\ndisable-model-invocation: maybe\n---\nx",
    // hookify's shape: a display name where a command name goes.
    "writing-rules/SKILL.md":
      '---\nname: Writing Hookify Rules\ndescription: This skill should be used when the user asks to "create a hookify rule".\nversion: 0.1.0\n---\n# Writing Hookify Rules\n',
    "quiet.md": "---\ndisable-model-invocation: true\nfoo: 1\n---\nx",
  });
  try {
    const { items, errors, warnings } = loadSkills(t.dir);
    assert.deepEqual(
      items.map((s) => s.name),
      ["haiku", "pdf-tools", "quiet", "writing-rules"],
    );
    const rules = items.find((s) => s.name === "writing-rules")!;
    assert.match(rules.description, /create a hookify rule/);
    const pdf = items.find((s) => s.name === "pdf-tools")!;
    assert.equal(pdf.description, "Work with PDFs");
    assert.equal(pdf.whenToUse, "a PDF is mentioned");
    assert.deepEqual(pdf.allowedTools, ["Read", "Bash"]);
    assert.deepEqual(pdf.argNames, ["file"]);
    assert.equal(pdf.dir, path.join(t.dir, "pdf"));
    const haiku = items.find((s) => s.name === "haiku")!;
    assert.equal(haiku.dir, null);
    assert.equal(haiku.description, "Write a haiku about $ARGUMENTS.");
    assert.equal(items.find((s) => s.name === "quiet")!.modelInvocable, false);
    assert.equal(errors.length, 1);
    assert.match(
      formatProblem(errors[0]),
      new RegExp(`^${path.join(t.dir, "broken", "SKILL.md")}: disable-model-invocation: `),
    );
    assert.deepEqual(warnings.map(formatProblem), [
      `${path.join(t.dir, "quiet.md")}: foo: unknown field, ignored`,
      `${path.join(t.dir, "writing-rules", "SKILL.md")}: name: "Writing Hookify Rules" is not a command name (letters, digits, '.', '_', '-'); loaded as "writing-rules"`,
    ]);
  } finally {
    await t.clean();
  }
});
