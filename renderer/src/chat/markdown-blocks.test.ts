/** Splitting Markdown into independently rendered blocks (streaming re-renders only the last). */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderMarkdown } from "./markdown.ts";
import { splitBlocks } from "./markdown-blocks.ts";

const SAMPLE = `# Title

A paragraph
over two lines.

\`\`\`ts
const a = 1;

const b = 2;
\`\`\`

- one
- two

  still two

> quote

1. first
2. second

Last words.`;

describe("markdown blocks", () => {
  it("splits at blank lines, never inside a code fence or a list item", () => {
    const blocks = splitBlocks(SAMPLE);
    assert.equal(blocks.join("\n"), SAMPLE, "blocks join back to the text");
    assert.equal(blocks.length, 7);
    assert.ok(blocks[2].includes("const a = 1;\n\nconst b = 2;"), "the fence stays whole");
    assert.ok(blocks[3].includes("still two"), "the list item's continuation stays with it");
  });

  it("renders block by block exactly as the whole text renders", () => {
    assert.equal(splitBlocks(SAMPLE).map(renderMarkdown).join(""), renderMarkdown(SAMPLE));
  });

  it("an unclosed fence (still streaming) keeps the rest in one block", () => {
    const blocks = splitBlocks("intro\n\n```py\nx = 1\n\ny = 2");
    assert.deepEqual(blocks, ["intro\n", "```py\nx = 1\n\ny = 2"]);
  });
});
