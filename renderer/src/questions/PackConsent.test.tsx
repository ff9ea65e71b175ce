/**
 * The pack install question as the dialog shows it: a marketplace's remote entries, who lists a
 * picked one, and the plugins another installed marketplace goes on serving.
 */
import { cleanup, FakeBridge, renderWith, screen, within } from "../testing/render.tsx";
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import type { QuestionOf } from "../../../main/host/questions.ts";
import { PackInstallBody } from "./PackConsent.tsx";

afterEach(cleanup);

const base: QuestionOf<"pack-install"> = {
  kind: "pack-install",
  pack: "claude-plugins-official",
  source: "https://github.com/anthropics/claude-plugins-official.git",
  scope: "global",
  plugins: [{ name: "receipts", description: "", format: "claude", permissions: [] }],
};

describe("PackInstallBody", () => {
  it("lists what a marketplace has from other repositories as not part of this install", () => {
    renderWith(
      new FakeBridge(),
      <PackInstallBody
        q={{
          ...base,
          remote: [
            { name: "box", description: "Box", source: "https://github.com/box/box-for-ai.git" },
            { name: "from-npm", description: "", source: "cannot be installed: npm" },
          ],
        }}
      />,
    );
    const section = screen.getByRole("region", { name: "Not part of this install" });
    assert.match(section.textContent ?? "", /2 plugins it lists from other repositories/);
    const items = within(section)
      .getAllByRole("listitem")
      .map((li) => li.textContent);
    assert.deepEqual(items, [
      "box https://github.com/box/box-for-ai.git",
      "from-npm cannot be installed: npm",
    ]);
  });

  it("says which marketplace lists a plugin installed from its own repository", () => {
    renderWith(
      new FakeBridge(),
      <PackInstallBody
        q={{ ...base, pack: "box", listedBy: "https://github.com/anthropics/x.git" }}
      />,
    );
    assert.ok(
      screen.getByText(
        /The Claude Code marketplace .* lists it; it installs from its own repository/,
      ),
    );
    assert.equal(screen.queryByRole("region", { name: "Not part of this install" }), null);
  });

  it("names the plugins an installed pack already has, which go on loading from it", () => {
    renderWith(
      new FakeBridge(),
      <PackInstallBody
        q={{ ...base, sameNamed: [{ pack: "claude-code", plugins: ["code-review", "hookify"] }] }}
      />,
    );
    const section = screen.getByRole("region", { name: "Already installed from claude-code" });
    assert.match(section.textContent ?? "", /Already installed from claude-code: 2 plugins/);
    assert.match(section.textContent ?? "", /The copies from claude-code go on loading/);
    assert.match(section.textContent ?? "", /code-review, hookify/);
  });
});
