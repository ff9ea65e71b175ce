/** A listing renders its text again only when its items or the filters asked for changed. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { KEEP_ALL, KEEP_NONE, listingOf, type ListedItem } from "./listing.ts";

const item = (name: string): ListedItem => ({
  kind: "skill",
  name,
  description: name,
  line: `- ${name}`,
});

test("a listing keeps its text by the items and filters that made it", () => {
  let items = [item("a"), item("b"), item("c")];
  let renders = 0;
  const listing = listingOf(
    () => items,
    (kept, left) => {
      renders++;
      return [...kept.map((i) => i.line), `${left} more`].join("\n");
    },
  );
  const onlyA = (i: ListedItem) => i.name === "a";
  assert.equal(listing.text(onlyA), "- a\n2 more");
  assert.equal(listing.text(onlyA), "- a\n2 more");
  assert.equal(renders, 1, "the same filter again is the same text");
  assert.equal(listing.text(KEEP_ALL), "- a\n- b\n- c\n0 more");
  assert.equal(listing.text(KEEP_NONE), "3 more");
  const rendersBefore = renders;
  assert.equal(listing.text(onlyA), "- a\n2 more");
  assert.equal(listing.text(KEEP_ALL), "- a\n- b\n- c\n0 more");
  assert.equal(listing.text(KEEP_NONE), "3 more");
  assert.equal(renders, rendersBefore, "the full, the empty and the last texts are kept apart");
  assert.equal(listing.text(KEEP_NONE, onlyA), "1 more", "`only` leaves the others uncounted");

  // A new filter (what a turn keeps changed) and new items are rendered anew.
  assert.equal(
    listing.text((i) => i.name !== "b"),
    "- a\n- c\n1 more",
  );
  items = [item("a"), item("d")];
  assert.equal(listing.text(onlyA), "- a\n1 more");
  assert.equal(listing.text(KEEP_ALL), "- a\n- d\n0 more");
});
