/**
 * Every relative link in the repository's Markdown (README.md, docs/, bench/README.md, the READMEs
 * beside the code) points at something that exists: a file or folder, spelled as it is on disk,
 * and for `#anchor` into a Markdown file, one of its headings as GitHub slugs them. A failure names
 * the file, the line, the link and what is wrong with it.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";

const ROOT = path.resolve(import.meta.dirname, "..");

/** Folders never scanned: dependencies, build output, benchmark results, test data. */
const SKIP_DIRS = new Set(["node_modules", "out", "dist", ".git", "fixtures"]);
const SKIP_PATHS = new Set(["bench/results"]);
/** Links that leave the repository on purpose: the shared spec beside it (not in the repo). */
const OUTSIDE_OK = ["../shared"];

/** The repository's Markdown files, relative to `root`, with `/` separators. */
function markdownFiles(root: string, dir = ""): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && !SKIP_PATHS.has(rel))
        found.push(...markdownFiles(root, rel));
    } else if (entry.isFile() && entry.name.endsWith(".md")) {
      found.push(rel);
    }
  }
  return found.sort();
}

/** GitHub's anchor for a heading's text (github-slugger, after Markdown's inline marks go). */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // links and images: their text
    .replace(/<[^>]+>/g, "") // inline HTML tags
    .replace(/`/g, "")
    .replace(/\*+/g, "")
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "").replace(/ /g, "-");
}

interface Link {
  target: string;
  line: number;
}

interface Scanned {
  links: Link[];
  anchors: Set<string>;
}

/** Keeps `text`'s line breaks and length, everything else of `match` becomes spaces. */
const blank = (match: string) => match.replace(/[^\n]/g, " ");

/** The links and heading anchors of one Markdown text; code blocks, code spans and comments skipped. */
function scan(text: string): Scanned {
  const lines = text.split("\n");
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const addHeading = (heading: string) => {
    const base = slug(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  };
  // Fenced code blocks become blank lines; headings are collected on the way.
  let fence: { char: string; length: number } | undefined;
  const prose: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      const closing = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
      if (closing && closing[1][0] === fence.char && closing[1].length >= fence.length) {
        fence = undefined;
      }
      prose.push("");
      continue;
    }
    if (opening) {
      fence = { char: opening[1][0], length: opening[1].length };
      prose.push("");
      continue;
    }
    const atx = /^ {0,3}#{1,6}(?:\s+(.*?))?(?:\s+#+)?\s*$/.exec(line);
    if (atx) addHeading(atx[1] ?? "");
    else if (/^ {0,3}(=+|-+)\s*$/.test(line) && i > 0 && isParagraphLine(lines[i - 1])) {
      addHeading(lines[i - 1]);
    }
    for (const m of line.matchAll(/<a\s[^>]*?(?:name|id)="([^"]+)"/g)) anchors.add(m[1]);
    prose.push(line);
  }
  const body = prose
    .join("\n")
    .replace(/<!--[\s\S]*?-->/g, blank)
    // Code spans (within a paragraph): their text is never a link.
    .replace(/(`+)(?:(?!\n[ \t]*\n)[\s\S])*?\1(?!`)/g, blank);
  const lineOf = (offset: number) => body.slice(0, offset).split("\n").length;
  const links: Link[] = [];
  for (const m of body.matchAll(/\]\(\s*(<[^>\n]*>|[^\s)]+)/g)) {
    links.push({ target: m[1].replace(/^<|>$/g, ""), line: lineOf(m.index) });
  }
  for (const m of body.matchAll(/^ {0,3}\[[^\]\n]+\]:\s*(<[^>\n]*>|\S+)/gm)) {
    links.push({ target: m[1].replace(/^<|>$/g, ""), line: lineOf(m.index) });
  }
  for (const m of body.matchAll(/<(?:a|img)\s[^>]*?(?:href|src)="([^"]+)"/g)) {
    links.push({ target: m[1], line: lineOf(m.index) });
  }
  return { links, anchors };
}

function isParagraphLine(line: string): boolean {
  return (
    line.trim() !== "" &&
    !/^ {0,3}(#|>|[-*+] |\d+[.)] |\||`{3}|~{3})/.test(line) &&
    !/^ {0,3}(=+|-+)\s*$/.test(line)
  );
}

/** How `rel` (relative to `root`, `/` separators) is spelled on disk, segment by segment, or why not. */
function onDisk(root: string, rel: string): { kind: "file" | "dir" } | { missing: string } {
  let dir = root;
  const parts = rel.split("/").filter((p) => p !== "" && p !== ".");
  for (let i = 0; i < parts.length; i++) {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return { missing: `${parts.slice(0, i).join("/")} is not a folder` };
    }
    const exact = entries.find((e) => e.name === parts[i]);
    if (!exact) {
      const other = entries.find((e) => e.name.toLowerCase() === parts[i].toLowerCase());
      const so = parts.slice(0, i + 1).join("/");
      return {
        missing: other
          ? `${so} is spelled ${[...parts.slice(0, i), other.name].join("/")} on disk`
          : `${so} does not exist`,
      };
    }
    dir = path.join(dir, exact.name);
    if (i === parts.length - 1) return { kind: exact.isDirectory() ? "dir" : "file" };
    if (!exact.isDirectory()) return { missing: `${parts.slice(0, i + 1).join("/")} is a file` };
  }
  return { kind: "dir" };
}

/** Every broken relative link under `root`, one line each: `file:line: link: what is wrong`. */
function brokenLinks(root: string): string[] {
  const files = markdownFiles(root);
  const scanned = new Map<string, Scanned>();
  const scanOf = (rel: string) => {
    let s = scanned.get(rel);
    if (!s) scanned.set(rel, (s = scan(readFileSync(path.join(root, rel), "utf8"))));
    return s;
  };
  const problems: string[] = [];
  for (const file of files) {
    for (const { target, line } of scanOf(file).links) {
      const wrong = (what: string) => problems.push(`${file}:${line}: ${target}: ${what}`);
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) continue; // external
      const hash = target.indexOf("#");
      const rawPath = (hash < 0 ? target : target.slice(0, hash)).replace(/\?.*$/, "");
      const anchor = hash < 0 ? undefined : target.slice(hash + 1);
      let decoded: string;
      try {
        decoded = decodeURIComponent(rawPath);
      } catch {
        wrong("not a valid URL path");
        continue;
      }
      const abs =
        decoded === ""
          ? path.join(root, file)
          : decoded.startsWith("/")
            ? path.join(root, decoded)
            : path.resolve(root, path.dirname(file), decoded);
      const rel = path.relative(root, abs).split(path.sep).join("/");
      if (rel === ".." || rel.startsWith("../")) {
        if (!OUTSIDE_OK.some((ok) => rel === ok || rel.startsWith(`${ok}/`))) {
          wrong("points outside the repository");
        }
        continue;
      }
      const found = onDisk(root, rel);
      if ("missing" in found) {
        wrong(`no such file or folder (${found.missing})`);
        continue;
      }
      if (found.kind === "file" && decoded.endsWith("/")) {
        wrong(`${rel} is a file, not a folder`);
        continue;
      }
      if (anchor === undefined || found.kind !== "file" || !rel.endsWith(".md")) continue;
      if (anchor === "") {
        wrong("empty anchor");
        continue;
      }
      const anchors = rel === file ? scanOf(file).anchors : scanOf(rel).anchors;
      if (!anchors.has(decodeURIComponent(anchor))) {
        wrong(`no heading in ${rel} has the anchor #${anchor}`);
      }
    }
  }
  return problems;
}

describe("links in the repository's Markdown", () => {
  it("finds the Markdown files, outside dependencies and build output", () => {
    const files = markdownFiles(ROOT);
    assert.ok(files.includes("README.md"), `README.md not found among ${files.join(", ")}`);
    assert.ok(
      files.some((f) => f.includes("/")),
      "no Markdown below the top folder",
    );
    assert.ok(!files.some((f) => f.startsWith("node_modules/") || f.startsWith("out/")));
  });

  it("every relative link points to an existing file, folder and heading", () => {
    const problems = brokenLinks(ROOT);
    assert.deepEqual(problems, [], `broken links:\n${problems.join("\n")}`);
  });
});

describe("the link checker", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "islet-doc-links-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  };

  it("slugs headings as GitHub does", () => {
    assert.equal(slug("The `islet` CLI"), "the-islet-cli");
    assert.equal(slug("Commands, skills and sub-agents"), "commands-skills-and-sub-agents");
    assert.equal(slug("What counts: `--subpath P`"), "what-counts---subpath-p");
    assert.equal(slug("**Bold** and [a link](x.md)"), "bold-and-a-link");
    assert.equal(slug("snake_case (v2.0)"), "snake_case-v20");
  });

  it("reports missing files, wrong case, wrong anchors and links out of the repository", () => {
    write("src/code.ts", "export {};\n");
    write("docs/guide.md", "# Guide\n\n## Set up\n\n## Set up\n\n## The `x` tool\n");
    write(
      "README.md",
      [
        "# Top",
        "",
        "[ok](docs/guide.md) [ok](docs/guide.md#set-up) [ok](docs/guide.md#set-up-1)",
        "[ok](docs/guide.md#the-x-tool) [ok](src/) [ok](src/code.ts#L1) [ok](#top)",
        "[ok](https://example.com/nowhere.md) [ok](../shared/SPEC.md) ![ok](docs/guide.md)",
        "`[not a link](nowhere.md)` and a span over two lines: `[no](",
        "nowhere.md)`",
        "",
        "```md",
        "[not a link](nowhere.md)",
        "```",
        "",
        "[gone](docs/gone.md)",
        "[case](Docs/guide.md)",
        "[anchor](docs/guide.md#setup)",
        "[self](#bottom)",
        "[slash](src/code.ts/)",
        "[out](../elsewhere/file.md)",
        "",
        "[ref]: docs/missing.md",
      ].join("\n"),
    );
    assert.deepEqual(brokenLinks(dir), [
      "README.md:13: docs/gone.md: no such file or folder (docs/gone.md does not exist)",
      "README.md:14: Docs/guide.md: no such file or folder (Docs is spelled docs on disk)",
      "README.md:15: docs/guide.md#setup: no heading in docs/guide.md has the anchor #setup",
      "README.md:16: #bottom: no heading in README.md has the anchor #bottom",
      "README.md:17: src/code.ts/: src/code.ts is a file, not a folder",
      "README.md:18: ../elsewhere/file.md: points outside the repository",
      "README.md:20: docs/missing.md: no such file or folder (docs/missing.md does not exist)",
    ]);
  });
});
