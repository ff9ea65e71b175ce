/**
 * Install links as an attacker would write them: each refused with one line naming the
 * parameter, and the few good forms turned into exactly what will be cloned.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { checkInstallLink, linkQueryOf } from "./link.ts";

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

test("accepts https, http to this computer, ssh and owner/repo, canonical for the dialog", () => {
  const cases: [string, Record<string, string>][] = [
    [
      q({ source: "https://github.com/acme/islet-plugin-x" }),
      { source: "https://github.com/acme/islet-plugin-x" },
    ],
    [
      q({ source: "acme/tools", ref: "v1.2", subpath: "packs/./lint/" }),
      { source: "https://github.com/acme/tools.git", ref: "v1.2", subpath: "packs/lint" },
    ],
    [
      q({ source: "http://127.0.0.1:8080/p.git", ref: "", subpath: "" }),
      { source: "http://127.0.0.1:8080/p.git" },
    ],
    [q({ source: "git@github.com:acme/x.git" }), { source: "git@github.com:acme/x.git" }],
    [
      q({ source: "ssh://git@example.com:2222/srv/x.git" }),
      { source: "ssh://git@example.com:2222/srv/x.git" },
    ],
    [
      "?source=acme%2Ftools&ref=feature%2Fnew",
      { source: "https://github.com/acme/tools.git", ref: "feature/new" },
    ],
  ];
  for (const [query, link] of cases) {
    const r = checkInstallLink(query);
    assert.deepEqual(r, { ok: true, link }, query);
    // What the page is handed back checks the same.
    assert.deepEqual(checkInstallLink(linkQueryOf(r.ok ? r.link : { source: "" })), r, query);
  }
});

test("refuses hostile links, each with one line that names the parameter", () => {
  const long = "a".repeat(1001);
  const cases: [string, RegExp][] = [
    [q({ source: "--upload-pack=touch /tmp/x" }), /^source: .*(option|spaces)/],
    [q({ source: "--upload-pack=touch%20/tmp/x" }), /^source: .*option/],
    ["source=%2D%2Dupload-pack%3Dtouch", /^source: .*option/],
    ["source=%252D-upload-pack", /^source: .*option/],
    [q({ source: "-oProxyCommand=x@host:repo" }), /^source: .*option/],
    [q({ source: "file:///etc" }), /^source: file:\/\/ names a folder/],
    [q({ source: "FILE:///etc/passwd" }), /^source: file:\/\//],
    [q({ source: "file:/etc" }), /^source: .*not a git URL/],
    [q({ source: "ext::sh -c touch% /tmp/pwned" }), /^source: .*(spaces|transport)/],
    [q({ source: "ext::sh" }), /^source: git transport helpers/],
    [q({ source: "fd::17" }), /^source: git transport helpers/],
    [q({ source: "git://127.0.0.1/x.git" }), /^source: git:\/\/ is not allowed/],
    [q({ source: "javascript://alert(1)" }), /^source: javascript:\/\/ is not allowed/],
    [
      q({ source: "http://evil.example/x.git" }),
      /^source: http:\/\/ is allowed only to this computer/,
    ],
    [
      q({ source: "https://user:ghp_secret@github.com/a/b" }),
      /^source: the URL carries a user name or password/,
    ],
    [
      q({ source: "https://ghp_secret@github.com/a/b" }),
      /^source: the URL carries a user name or password/,
    ],
    [
      q({ source: "ssh://git:pw@example.com/x.git" }),
      /^source: the URL carries a user name or password/,
    ],
    [q({ source: "https://github.com/a/../../etc" }), /^source: .*"\.\." path segment/],
    [q({ source: "https://github.com/a/%2e%2e/b" }), /^source: .*"\.\." path segment/],
    [q({ source: "git@host:../../x" }), /^source: .*"\.\." path segment/],
    [q({ source: "/etc/passwd" }), /^source: .*not a git URL/],
    [q({ source: "./here" }), /^source: .*not a git URL/],
    [q({ source: "~/packs" }), /^source: .*not a git URL/],
    [q({ source: "C:\\Users\\x" }), /^source: .*backslash/],
    [q({ source: "https://github.com/a/b\nhost=evil" }), /^source: .*control characters/],
    ["source=https://github.com/a/b%00", /^source: .*control characters/],
    [q({ source: "https://github.com/a/b?x=1" }), /^source: .*query/],
    [q({ source: "" }), /^source: missing/],
    ["ref=main", /^source: missing/],
    [q({ source: long }), /^source: longer than 1000 characters$/],
    [q({ source: "acme/x", ref: "--orphan" }), /^ref: "--orphan" is not a valid/],
    ["source=acme/x&ref=%2D%2Dorphan", /^ref: "--orphan" is not a valid/],
    [q({ source: "acme/x", ref: "main..evil" }), /^ref: /],
    [q({ source: "acme/x", ref: "HEAD@{1}" }), /^ref: /],
    [q({ source: "acme/x", ref: "a b" }), /^ref: /],
    [q({ source: "acme/x", ref: "r".repeat(201) }), /^ref: longer than 200/],
    [q({ source: "acme/x", subpath: "../../x" }), /^subpath: .*outside the repository/],
    ["source=acme/x&subpath=%2e%2e/%2e%2e/x", /^subpath: .*outside the repository/],
    ["source=acme/x&subpath=a/%252e%252e/b", /^subpath: .*outside the repository/],
    [q({ source: "acme/x", subpath: "/etc" }), /^subpath: .*absolute/],
    [q({ source: "acme/x", subpath: "C:/x" }), /^subpath: .*absolute/],
    [q({ source: "acme/x", subpath: "a\\..\\b" }), /^subpath: .*backslash/],
    [q({ source: "acme/x", subpath: "s".repeat(501) }), /^subpath: longer than 500/],
    ["source=acme/x&source=evil/y", /^source: given more than once$/],
    ["source=acme/x&ref=a&ref=b", /^ref: given more than once$/],
    ["source=acme/x&name=../../evil", /^unknown parameter "name": a link takes only/],
    ["source=acme/x&scope=project", /^unknown parameter "scope"/],
    ["source=acme/x&token=abc", /^unknown parameter "token"/],
    [`source=acme/x&ref=${"a".repeat(4100)}`, /^the link is too long/],
  ];
  for (const [query, why] of cases) {
    const r = checkInstallLink(query);
    assert.equal(r.ok, false, `accepted: ${query}`);
    if (r.ok) continue;
    assert.match(r.error, why, query);
    assert.ok(!r.error.includes("\n"), `more than one line: ${r.error}`);
  }
});
