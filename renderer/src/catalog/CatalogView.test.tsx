/** The Catalog tab's installed count and the packs no catalog lists, apart by whether they have a source. */
import {
  cleanup,
  FakeBridge,
  fireEvent,
  renderWith,
  screen,
  waitFor,
  within,
} from "../testing/render.tsx";
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
    await screen.findByText(/1 installed · 1 made here/);
    const elsewhere = screen.getByRole("region", { name: "Installed from elsewhere" });
    assert.match(elsewhere.textContent ?? "", /from-git/);
    const local = screen.getByRole("region", { name: "Made here or copied from a folder" });
    assert.match(local.textContent ?? "", /my-own/);
    assert.match(local.textContent ?? "", /no update source/);
    assert.doesNotMatch(elsewhere.textContent ?? "", /my-own/);
  });

  it("an installed marketplace lists what it has from other repositories, each with Install as a pack of its own", async () => {
    const market = {
      ...pack("claude-plugins-official", true),
      remote: [
        {
          name: "amd-skills",
          description: "AMD's skills",
          source: "https://github.com/amd/skills.git, folder skills, at b641e5fbd17e",
        },
        {
          name: "from-npm",
          description: "",
          source:
            'cannot be installed: its source is of kind "npm", which Islet cannot install (git only)',
        },
      ],
    };
    const bridge = new FakeBridge()
      .handle("catalog/list", () => ({
        catalogs: [],
        packs: [],
        tags: [],
        others: [market],
        file: "settings.json",
      }))
      .handle("packs/install", (r) => ({
        operation: r.operation ?? "op",
        status: "done" as const,
        pack: null,
        reports: [],
      }));
    renderWith(bridge, <CatalogView tabs={null} connection="open" />);
    const card = (await screen.findByText("claude-plugins-official")).closest("article")!;
    const list = within(card as HTMLElement).getByRole("list", {
      name: /2 more plugins it lists from other repositories/,
    });
    assert.match(list.textContent ?? "", /https:\/\/github\.com\/amd\/skills\.git, folder skills/);
    const blocked = within(list).getByRole("button", { name: "Install from-npm" });
    assert.equal(
      (blocked as HTMLButtonElement).disabled,
      true,
      "an npm source cannot be installed",
    );
    fireEvent.click(within(list).getByRole("button", { name: "Install amd-skills" }));
    await waitFor(() => assert.equal(bridge.requests("packs/install").length, 1));
    const sent = bridge.requests("packs/install") as Record<string, unknown>[];
    assert.deepEqual(
      { source: sent[0].source, plugin: sent[0].plugin, scope: sent[0].scope },
      { source: "claude-plugins-official", plugin: "amd-skills", scope: "global" },
    );
  });

  it("searching finds a plugin an installed marketplace lists from another repository", async () => {
    const entry = (name: string, description: string) => ({
      name,
      description,
      source: `https://github.com/acme/${name}.git`,
    });
    const market = {
      ...pack("claude-plugins-official", true),
      remote: [
        entry("stripe", "Payments with Stripe"),
        entry("figma", "Design files"),
        entry("sentry", "Error tracking"),
      ],
    };
    const bridge = new FakeBridge().handle("catalog/list", () => ({
      catalogs: [],
      packs: [],
      tags: [],
      others: [market, pack("unrelated", true)],
      file: "settings.json",
    }));
    renderWith(bridge, <CatalogView tabs={null} connection="open" />);
    await screen.findByText("claude-plugins-official");
    fireEvent.change(screen.getByRole("searchbox"), { target: { value: "payments" } });
    const elsewhere = screen.getByRole("region", { name: "Installed from elsewhere" });
    // The marketplace stays for what it lists; a pack that matches in nothing goes.
    assert.doesNotMatch(elsewhere.textContent ?? "", /unrelated/);
    const list = within(elsewhere).getByRole("list", {
      name: /1 of 3 plugins it lists from other repositories matches “payments”/,
    });
    assert.ok((list.closest("details") as HTMLDetailsElement).open, "opened on a match");
    assert.deepEqual(
      within(list)
        .getAllByRole("button")
        .map((b) => b.getAttribute("aria-label")),
      ["Install stripe"],
    );
    // Cleared: all of them again, the marketplace's list as it was.
    fireEvent.change(screen.getByRole("searchbox"), { target: { value: "" } });
    await screen.findByText("unrelated");
    within(screen.getByRole("region", { name: "Installed from elsewhere" })).getByRole("list", {
      name: /3 more plugins it lists from other repositories/,
    });
  });
});
