/** One plugin's files: fetched for the plugin shown, never another's, again after a reload. */
import { act, cleanup, FakeBridge, renderWith, screen, waitFor } from "../testing/render.tsx";
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { usePluginFiles, type PluginFiles } from "./usePluginFiles.ts";

afterEach(cleanup);

const files = (name: string, ...paths: string[]): PluginFiles => ({
  name,
  source: "global",
  dir: `/home/me/.islet/plugins/${name}`,
  entry: "index.ts",
  files: paths.map((path) => ({ path, size: 10 })),
  problems: [],
});

function Files({ plugin }: { plugin: string | null }) {
  const { data } = usePluginFiles(plugin);
  return <p>{data ? `${data.name}: ${data.files.map((f) => f.path).join(", ")}` : "none"}</p>;
}

describe("usePluginFiles", () => {
  it("asks nothing without a plugin", () => {
    const bridge = new FakeBridge();
    renderWith(bridge, <Files plugin={null} />);
    screen.getByText("none");
    assert.deepEqual(bridge.requests("editor/files"), []);
  });

  it("shows no files of the previous plugin while the next one's are on their way", async () => {
    const later = Promise.withResolvers<PluginFiles>();
    const bridge = new FakeBridge().handle("editor/files", ({ name }) =>
      name === "alpha" ? files("alpha", "index.ts") : later.promise,
    );
    const view = renderWith(bridge, <Files plugin="alpha" />);
    await screen.findByText("alpha: index.ts");
    view.rerender(<Files plugin="beta" />);
    screen.getByText("none");
    await act(async () => later.resolve(files("beta", "index.ts", "util.ts")));
    screen.getByText("beta: index.ts, util.ts");
    assert.deepEqual(bridge.requests("editor/files"), [{ name: "alpha" }, { name: "beta" }]);
  });

  it("lists the files again after plugins change", async () => {
    let paths = ["index.ts"];
    const bridge = new FakeBridge().handle("editor/files", ({ name }) => files(name, ...paths));
    renderWith(bridge, <Files plugin="alpha" />);
    await screen.findByText("alpha: index.ts");
    paths = ["index.ts", "new.ts"];
    act(() => bridge.emit("plugins/changed", { cause: "file-change", reports: [] }));
    await screen.findByText("alpha: index.ts, new.ts");
    await waitFor(() => assert.equal(bridge.requests("editor/files").length, 2));
  });
});
