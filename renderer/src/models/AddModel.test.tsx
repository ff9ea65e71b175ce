/** The Models screen's "Add a model file…" and "Download from a URL…" against the fake transport. */
import {
  act,
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
import { BridgeError } from "../../../main/bridge/contract.ts";
import { ModelsView } from "./ModelsView.tsx";
import type { ModelDownload } from "./useLocalModels.ts";

afterEach(cleanup);

const URL_ = "https://models.example/files/Tiny-Q4.gguf";

const download = (over: Partial<ModelDownload>): ModelDownload => ({
  name: "Tiny-Q4",
  title: "Tiny-Q4",
  source: URL_,
  state: "running",
  received: 0,
  total: 2e9,
  bytesPerSecond: 0,
  secondsLeft: null,
  error: null,
  partial: 0,
  ...over,
});

function engine(host: "desktop" | "browser" = "browser") {
  return new FakeBridge()
    .handle("app/info", () => ({
      name: "Islet",
      version: "0.1.0",
      host,
      versions: { node: "24", electron: null, chrome: null },
      platform: "linux",
      workdir: "/work/project",
      home: "/home/me",
    }))
    .handle("models/pickFile", () => ({ path: "/home/me/Downloads/picked.gguf" }))
    .handle("models/local", () => ({
      dir: "/home/me/.islet/models",
      models: [],
      catalog: [],
      recommended: null,
      totalMemory: 16e9,
      downloads: [],
      catalogError: null,
    }))
    .handle("models/addFile", ({ path }) => {
      if (path.includes("shadow"))
        throw new BridgeError({
          source: "models/addFile",
          title: `${path}: not a GGUF model file (it does not start with the GGUF signature) — choose a .gguf file`,
        });
      return { name: "My-Model" };
    })
    .handle("models/download", ({ name }) => download({ source: name }));
}

const fill = (label: RegExp, text: string) =>
  fireEvent.change(screen.getByRole("textbox", { name: label }), { target: { value: text } });

describe("AddModel", () => {
  it("adds a model file by its full path; the engine's refusal is shown in words", async () => {
    const bridge = engine();
    renderWith(bridge, <ModelsView />);
    fireEvent.click(await screen.findByRole("button", { name: "Add a model file…" }));
    fill(/Full path of a \.gguf file/, " /home/me/Downloads/My Model.gguf ");
    fireEvent.click(screen.getByRole("button", { name: "Add" }));
    await screen.findByText("Added My-Model.");
    assert.deepEqual(bridge.requests("models/addFile"), [
      { path: "/home/me/Downloads/My Model.gguf" },
    ]);
    fill(/Full path of a \.gguf file/, "/home/me/shadow.gguf");
    fireEvent.click(screen.getByRole("button", { name: "Add" }));
    const alert = await screen.findByRole("alert");
    assert.match(alert.textContent ?? "", /not a GGUF model file/);
  });

  it("in the desktop app, Choose… fills the path from the file dialog; a browser page has no Choose…", async () => {
    const bridge = engine("desktop");
    renderWith(bridge, <ModelsView />);
    fireEvent.click(await screen.findByRole("button", { name: "Add a model file…" }));
    fireEvent.click(await screen.findByRole("button", { name: "Choose…" }));
    await waitFor(() =>
      assert.equal(
        (screen.getByRole("textbox", { name: /Full path/ }) as HTMLInputElement).value,
        "/home/me/Downloads/picked.gguf",
      ),
    );
    cleanup();
    renderWith(engine(), <ModelsView />);
    fireEvent.click(await screen.findByRole("button", { name: "Add a model file…" }));
    await screen.findByRole("textbox", { name: /Full path/ });
    assert.equal(screen.queryByRole("button", { name: "Choose…" }), null);
  });

  it("refuses file: and javascript: addresses without asking the engine; downloads an https one", async () => {
    const bridge = engine();
    renderWith(bridge, <ModelsView />);
    fireEvent.click(await screen.findByRole("button", { name: "Download from a URL…" }));
    for (const bad of ["javascript:alert(1)", "file:///etc/passwd"]) {
      fill(/Web address/, bad);
      fireEvent.click(screen.getByRole("button", { name: "Download" }));
      const alert = await screen.findByRole("alert");
      assert.match(alert.textContent ?? "", /Only web addresses \(http or https\)/);
    }
    assert.deepEqual(bridge.requests("models/download"), []);
    fill(/Web address/, URL_);
    fireEvent.click(screen.getByRole("button", { name: "Download" }));
    await waitFor(() => assert.deepEqual(bridge.requests("models/download"), [{ name: URL_ }]));
  });

  it("a URL download shows its progress, and Resume after it broke off sends the URL again", async () => {
    const bridge = engine();
    renderWith(bridge, <ModelsView />);
    await screen.findByRole("button", { name: "Download from a URL…" });
    act(() => bridge.emit("models/download", download({ received: 1e9, bytesPerSecond: 1e7 })));
    const urls = within(await screen.findByRole("region", { name: "From URLs" }));
    urls.getByRole("progressbar", { name: "Downloading Tiny-Q4" });
    urls.getByText(URL_);
    act(() =>
      bridge.emit(
        "models/download",
        download({
          state: "failed",
          received: 1e9,
          partial: 1e9,
          error:
            "Tiny-Q4: the connection closed early — choose Resume to continue where it stopped",
        }),
      ),
    );
    fireEvent.click(await urls.findByRole("button", { name: "Resume" }));
    await waitFor(() => assert.deepEqual(bridge.requests("models/download"), [{ name: URL_ }]));
  });
});
