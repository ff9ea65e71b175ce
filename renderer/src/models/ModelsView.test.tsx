/** The Models screen against the fake transport: list, download with progress, cancel, delete. */
import {
  act,
  cleanup,
  FakeBridge,
  fireEvent,
  renderWith,
  screen,
  textOf,
  waitFor,
  within,
} from "../testing/render.tsx";
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { CALLS } from "../../../main/bridge/contract.ts";
import { ModelsView } from "./ModelsView.tsx";
import type { LocalModels, ModelDownload } from "./useLocalModels.ts";

afterEach(cleanup);

const TINY: LocalModels["models"][number] = {
  name: "tiny.gguf",
  size: 120e6,
  architecture: "llama",
  parameters: 110e6,
  contextLength: 2048,
  quantization: "Q8_0",
  memoryNeeded: 300e6,
  fit: "fits",
  error: null,
  inUse: true,
};

const QWEN: LocalModels["catalog"][number] = {
  name: "qwen3-1.7b",
  title: "Qwen3 1.7B",
  description: "Small and quick",
  size: 1.2e9,
  quantization: "Q4_K_M",
  parameters: "1.7B",
  memoryNeeded: 2e9,
  license: "Apache-2.0",
  url: "https://models.example/qwen3-1.7b.gguf",
  fit: "fits",
  downloaded: false,
};

/** What `models/local` answers (checked against the contract, as the engine's answers are). */
const local = (models: LocalModels["models"], qwenDownloaded = false): LocalModels =>
  CALLS["models/local"].response.parse({
    dir: "/home/me/.islet/models",
    models,
    catalog: [{ ...QWEN, downloaded: qwenDownloaded }],
    recommended: "qwen3-1.7b",
    totalMemory: 16e9,
    downloads: [],
    catalogError: null,
  });

const progress = (over: Partial<ModelDownload>): ModelDownload => ({
  name: "qwen3-1.7b",
  title: "Qwen3 1.7B",
  source: "qwen3-1.7b",
  state: "running",
  received: 0,
  total: 1.2e9,
  bytesPerSecond: 0,
  secondsLeft: null,
  error: null,
  partial: 0,
  ...over,
});

function engine() {
  const disk = { models: [TINY], qwen: false };
  const bridge = new FakeBridge()
    .handle("models/local", () => local(disk.models, disk.qwen))
    .handle("models/download", ({ name }) => progress({ name }))
    .handle("models/cancelDownload", () => ({ cancelled: true }))
    .handle("models/delete", ({ name }) => {
      disk.models = disk.models.filter((m) => m.name !== name);
      return { name };
    });
  return { bridge, disk };
}

const section = (name: string) => within(screen.getByRole("region", { name }));

describe("ModelsView", () => {
  it("lists the downloaded models and the catalog", async () => {
    renderWith(engine().bridge, <ModelsView />);
    await screen.findByText("tiny.gguf");
    screen.getByText(/16\.0 GB of memory/);
    const downloaded = section("Downloaded");
    downloaded.getByText("In use");
    downloaded.getByText("llama · 110M parameters · Q8_0 · 2,048 tokens context");
    const catalog = section("Catalog");
    catalog.getByText("Qwen3 1.7B");
    catalog.getByText("Recommended");
    catalog.getByText("1.7B parameters · Q4_K_M · Apache-2.0");
  });

  it("downloads a catalog model: its name is sent, progress shows, Cancel is sent, the end relists", async () => {
    const { bridge, disk } = engine();
    renderWith(bridge, <ModelsView />);
    await screen.findByText("Qwen3 1.7B");
    fireEvent.click(section("Catalog").getByRole("button", { name: "Download" }));
    await waitFor(() =>
      assert.deepEqual(bridge.requests("models/download"), [{ name: "qwen3-1.7b" }]),
    );
    act(() =>
      bridge.emit(
        "models/download",
        progress({ received: 600e6, bytesPerSecond: 20e6, secondsLeft: 30 }),
      ),
    );
    const bar = await screen.findByRole("progressbar", { name: "Downloading Qwen3 1.7B" });
    assert.equal(bar.getAttribute("aria-valuenow"), "50");
    section("Catalog").getByText("600 MB of 1.2 GB · 20 MB/s · 30 s left");
    fireEvent.click(section("Catalog").getByRole("button", { name: "Cancel" }));
    await waitFor(() =>
      assert.deepEqual(bridge.requests("models/cancelDownload"), [{ name: "qwen3-1.7b" }]),
    );

    disk.qwen = true;
    act(() => bridge.emit("models/download", progress({ state: "done", received: 1.2e9 })));
    await section("Catalog").findByText("Downloaded");
    assert.equal(textOf(screen.queryByRole("progressbar")), null);
    assert.equal(bridge.requests("models/local").length, 2);
  });

  it("says why a download failed; with nothing kept its button is Retry, which starts it again", async () => {
    const { bridge } = engine();
    renderWith(bridge, <ModelsView />);
    await screen.findByText("Qwen3 1.7B");
    act(() =>
      bridge.emit(
        "models/download",
        progress({ state: "failed", error: "the disk is full: free 1.2 GB and try again" }),
      ),
    );
    const alert = await section("Catalog").findByRole("alert");
    assert.equal(alert.textContent, "the disk is full: free 1.2 GB and try again");
    assert.equal(section("Catalog").queryByRole("button", { name: "Download" }), null);
    fireEvent.click(section("Catalog").getByRole("button", { name: "Retry" }));
    await waitFor(() =>
      assert.deepEqual(bridge.requests("models/download"), [{ name: "qwen3-1.7b" }]),
    );
  });

  it("a failed or cancelled download that kept part of the file offers Resume and says how much is kept", async () => {
    const { bridge } = engine();
    renderWith(bridge, <ModelsView />);
    await screen.findByText("Qwen3 1.7B");
    act(() =>
      bridge.emit(
        "models/download",
        progress({
          state: "failed",
          received: 300e6,
          partial: 300e6,
          error:
            "qwen3-1.7b: the connection closed early — choose Resume to continue where it stopped",
        }),
      ),
    );
    const resume = await section("Catalog").findByRole("button", { name: "Resume" });
    assert.equal(section("Catalog").queryByRole("button", { name: "Download" }), null);
    section("Catalog").getByText("Stopped · 300 MB of 1.2 GB kept");
    assert.doesNotMatch(section("Catalog").getByRole("alert").textContent ?? "", /command/);
    fireEvent.click(resume);
    await waitFor(() =>
      assert.deepEqual(bridge.requests("models/download"), [{ name: "qwen3-1.7b" }]),
    );
    act(() => bridge.emit("models/download", progress({ state: "cancelled", partial: 500e6 })));
    await section("Catalog").findByText("Cancelled · 500 MB of 1.2 GB kept");
    section("Catalog").getByRole("button", { name: "Resume" });
  });

  it("deletes a downloaded model once confirmed, and relists on settings/changed", async () => {
    const { bridge } = engine();
    renderWith(bridge, <ModelsView />);
    await screen.findByText("tiny.gguf");
    fireEvent.click(screen.getByRole("button", { name: "Delete tiny.gguf" }));
    const confirm = screen.getByRole("group", { name: "Delete tiny.gguf?" });
    assert.deepEqual(bridge.requests("models/delete"), []);
    fireEvent.click(within(confirm).getByRole("button", { name: "Delete" }));
    await waitFor(() =>
      assert.deepEqual(bridge.requests("models/delete"), [{ name: "tiny.gguf" }]),
    );
    act(() => bridge.emit("settings/changed", { section: "models" }));
    await section("Downloaded").findByText(/None yet/);
  });

  it("shows the engine's reason when the models cannot be listed", async () => {
    const bridge = new FakeBridge().handle("models/local", () => {
      throw new Error("models folder unreadable: permission denied");
    });
    renderWith(bridge, <ModelsView />);
    const alert = await screen.findByRole("alert");
    assert.match(alert.textContent ?? "", /The models could not be listed/);
    assert.match(alert.textContent ?? "", /permission denied/);
  });
});
