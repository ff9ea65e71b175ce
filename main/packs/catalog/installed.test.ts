import assert from "node:assert/strict";
import { test } from "node:test";
import type { InstalledPack } from "../types.ts";
import { installedFromCatalog } from "./installed.ts";
import type { CatalogPack } from "./load.ts";

const pack = (name: string, url: string, subpath?: string): CatalogPack => ({
  name,
  description: "",
  url,
  tags: [],
  catalog: "default",
  ...(subpath ? { subpath } : {}),
});

const installed = (
  name: string,
  scope: "global" | "project",
  url?: string,
  subpath?: string,
): InstalledPack => ({
  name,
  dir: `/home/${scope}/plugins/${name}`,
  scope,
  plugins: [name],
  ...(url
    ? {
        origin: {
          url,
          commit: "a".repeat(40),
          installedAt: "2026-11-24T10:00:00.000Z",
          vendored: true,
          ...(subpath ? { subpath } : {}),
        },
      }
    : {}),
});

test("a catalog pack is installed when an installed pack came from the same repository and subpath", () => {
  const gh = pack("tools", "owner/tools");
  const sub = pack("one", "https://example.com/mono.git", "plugins/one");
  const other = pack("other", "https://example.com/other");
  const found = installedFromCatalog(
    [gh, sub, other],
    [
      // Renamed at install (--name) and spelled differently: still the same repository.
      installed("my-tools", "global", "git@github.com:Owner/tools.git"),
      installed("my-tools-here", "project", "https://github.com/owner/tools/"),
      installed("one", "global", "https://example.com/mono", "/plugins/one/"),
      installed("mono-two", "global", "https://example.com/mono", "plugins/two"),
      // A copy of a local folder (no origin) matches nothing.
      installed("other", "global"),
    ],
  );
  assert.deepEqual(
    found.get(gh)?.map((i) => i.name),
    ["my-tools-here", "my-tools"],
    "project scope first (it is the one that loads)",
  );
  assert.deepEqual(
    found.get(sub)?.map((i) => i.name),
    ["one"],
  );
  assert.deepEqual(found.get(other), []);
});
