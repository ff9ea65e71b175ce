/** The transcript's Markdown: raw HTML stays text, code is highlighted, links leave the app. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderMarkdown } from "./markdown.ts";

describe("renderMarkdown", () => {
  it("never passes a model's raw HTML through", () => {
    const html = renderMarkdown('Hi <script>alert(1)</script> <img src=x onerror="alert(2)">');
    assert.ok(!html.includes("<script"), html);
    assert.ok(!html.includes("<img"), html);
    assert.match(html, /&lt;script&gt;/);
  });

  it("highlights a known language and gives every code block a labelled Copy button", () => {
    const html = renderMarkdown("```python\ndef f(): return 1\n```\n\n```\nplain <b>\n```");
    assert.match(html, /<code class="hljs language-python"><span class="hljs-keyword">def<\/span>/);
    assert.match(html, /aria-label="Copy python code"/);
    assert.match(html, /aria-label="Copy text code"/);
    assert.match(html, /plain &lt;b&gt;/);
  });

  it("opens links outside the app, without a referrer", () => {
    const html = renderMarkdown("[docs](https://example.com) and https://example.org");
    assert.equal(html.match(/target="_blank" rel="noopener noreferrer"/g)?.length, 2);
    assert.ok(!renderMarkdown("[x](javascript:alert(1))").includes(`href="javascript:`));
  });
});
