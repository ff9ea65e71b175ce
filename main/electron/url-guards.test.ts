import { strict as assert } from "node:assert";
import { join, resolve, sep } from "node:path";
import { describe, it } from "node:test";
import { isExternalLink, loopbackHttpUrl, originOf, resolveInside } from "./url-guards.ts";
import { RENDERER_CSP_HEADER, RENDERER_CSP_META } from "../web/csp.ts";

const root = resolve("/srv/islet/out/renderer");

describe("resolveInside", () => {
  it("maps the root to index.html and assets inside the root", () => {
    assert.equal(resolveInside(root, "/"), join(root, "index.html"));
    assert.equal(resolveInside(root, "/assets/index-1.js"), join(root, "assets/index-1.js"));
    assert.equal(resolveInside(root, "/a%20b.css"), join(root, "a b.css"));
  });

  it("never leaves the root", () => {
    for (const attack of ["/../secret", "/%2e%2e/secret", "/..%2f..%2fetc/passwd", "/x/../../y"]) {
      const file = resolveInside(root, attack);
      assert.ok(file === null || file.startsWith(root + sep), `${attack} → ${String(file)}`);
    }
    assert.equal(resolveInside(root, "/%E0%A4%A"), null);
    assert.equal(resolveInside(root, "/a%00.js"), null);
  });
});

describe("originOf", () => {
  it("gives app:// a tuple origin like Chromium does", () => {
    assert.equal(originOf("app://islet/index.html"), "app://islet");
    assert.equal(originOf("http://localhost:5173/x"), "http://localhost:5173");
    assert.equal(originOf("not a url"), undefined);
  });
});

describe("isExternalLink", () => {
  it("accepts plain https links only", () => {
    assert.equal(isExternalLink("https://example.com/docs"), true);
    assert.equal(isExternalLink("http://example.com"), false);
    assert.equal(isExternalLink("file:///etc/passwd"), false);
    assert.equal(isExternalLink("javascript:alert(1)"), false);
    assert.equal(isExternalLink("https://user:pw@example.com"), false);
  });
});

describe("loopbackHttpUrl", () => {
  it("accepts a loopback http dev server only", () => {
    assert.equal(loopbackHttpUrl("http://localhost:5173"), "http://localhost:5173/");
    assert.equal(loopbackHttpUrl("http://127.0.0.1:5173/"), "http://127.0.0.1:5173/");
    assert.equal(loopbackHttpUrl("http://example.com:5173"), null);
    assert.equal(loopbackHttpUrl("https://localhost:5173"), null);
    assert.equal(loopbackHttpUrl(undefined), null);
  });
});

describe("renderer CSP", () => {
  it("allows nothing from elsewhere", () => {
    for (const csp of [RENDERER_CSP_META, RENDERER_CSP_HEADER]) {
      assert.match(csp, /default-src 'self'/);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.doesNotMatch(csp, /https?:|\*|unsafe-eval/);
    }
    assert.match(RENDERER_CSP_HEADER, /frame-ancestors 'none'/);
    assert.doesNotMatch(RENDERER_CSP_META, /frame-ancestors/);
  });
});
