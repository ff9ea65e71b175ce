/** The Catalog tab's installed count and the packs no catalog lists, apart by whether they have a source. */
import { cleanup, FakeBridge, renderWith, screen } from "../testing/render.tsx";
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { CatalogView } from "./CatalogView.tsx";

afterEach(cleanup);

const pack = (name: string, origin: boolean) => ({
  name,
  dir: `/home/u/.islet/plugins/${name}`,
  scope: "global" as const,
  origin: origin
    ? {
        url: `https://example.com/${name}.git`,
        ref: null,
        subpath: null,
        commit: "0123456789abcdef0123456789abcdef01234567",
        installedAt: "2026-11-01T10:00:00.000Z",
        updatedAt: null,
        vendored: false,
      }
    : null,
  plugins: [name],
});

describe("CatalogView", () => {
  it("counts packs installed from a source, not plugins made here, and lists the two apart", async () => {
    const bridge = new FakeBridge().handle("catalog/list", () => ({
      catalogs: [],
      packs: [],
      tags: [],
      others: [pack("from-git", true), pack("my-own", false)],
      file: "settings.json",
    }));
    renderWith(bridge, <CatalogView tabs={null} connection="open" />);
    await screen.findByText(/1 installed/);
    const elsewhere = screen.getByRole("region", { name: "Installed from elsewhere" });
    assert.match(elsewhere.textContent ?? "", /from-git/);
    const local = screen.getByRole("region", { name: "Made here or copied from a folder" });
    assert.match(local.textContent ?? "", /my-own/);
    assert.match(local.textContent ?? "", /no update source/);
    assert.doesNotMatch(elsewhere.textContent ?? "", /my-own/);
  });
});
