import assert from "node:assert/strict";
import { test } from "node:test";
import { catalogTags, searchCatalog } from "./catalog-search.ts";

const PACKS = [
  {
    name: "review-tools",
    description: "Agents that review pull requests",
    tags: ["git", "review"],
  },
  { name: "notes", description: "Keeps a notepad; good for reviews later", tags: ["productivity"] },
  { name: "git-helpers", description: "Commit and push commands", tags: ["git", "claude-code"] },
  { name: "pdf", description: "Reads PDF documents", tags: ["documents", "claude-code"] },
];
const names = (list: { name: string }[]) => list.map((p) => p.name);

test("search matches name, description and tags, every word, name matches first", () => {
  assert.deepEqual(names(searchCatalog(PACKS, "")), [
    "review-tools",
    "notes",
    "git-helpers",
    "pdf",
  ]);
  assert.deepEqual(names(searchCatalog(PACKS, "review")), ["review-tools", "notes"]);
  assert.deepEqual(names(searchCatalog(PACKS, "GIT")), ["git-helpers", "review-tools"]);
  assert.deepEqual(names(searchCatalog(PACKS, "git push")), ["git-helpers"]);
  assert.deepEqual(names(searchCatalog(PACKS, "documents")), ["pdf"]);
  assert.deepEqual(searchCatalog(PACKS, "nothing-like-it"), []);
});

test("a tag filter keeps only packs carrying the tag, with or without a query", () => {
  assert.deepEqual(names(searchCatalog(PACKS, "", "claude-code")), ["git-helpers", "pdf"]);
  assert.deepEqual(names(searchCatalog(PACKS, "pdf", "Claude-Code")), ["pdf"]);
  assert.deepEqual(names(searchCatalog(PACKS, "review", "claude-code")), []);
  assert.deepEqual(catalogTags(PACKS), [
    "claude-code",
    "git",
    "documents",
    "productivity",
    "review",
  ]);
});
