/** Settings against the fake transport: the provider form (add, edit, test, refusal), theme. */
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
import { CALLS, type CallRequest } from "../../../main/bridge/contract.ts";
import { SettingsView } from "./SettingsView.tsx";
import type { ProviderView, SettingsView as View } from "./useSettings.ts";

afterEach(cleanup);

const WORK: ProviderView = {
  name: "work-openai",
  type: "openai-compatible",
  baseUrl: "https://api.example.com/v1",
  model: "gpt-x",
  apiKeyEnv: null,
  extensionsBudget: null,
  hookContextBudget: null,
  key: "set",
  keySource: "stored",
  source: "global",
};

/** The settings as the engine answers them (checked against the contract). */
const view = (providers: ProviderView[], theme: View["theme"] = "system"): View =>
  CALLS["settings/get"].response.parse({
    theme,
    defaultModel: null,
    defaultAgent: "build",
    providers,
    providersError: null,
    providersFile: "/home/me/.islet/providers.yaml",
    keys: { available: true, protection: "encrypted by the system keychain" },
    approvals: { workdir: "/work/project", file: "/home/me/.islet/settings.json", tools: [] },
    plugins: {
      runtime: "auto",
      unsafe: false,
      active: { runtime: "isolated-vm", unsafe: false },
      file: "/home/me/.islet/features/plugins.yaml",
    },
    file: "/home/me/.islet/settings.json",
  });

/** An engine whose providers.yaml holds `providers`; saving and removing change it. */
function engine(providers: ProviderView[] = [WORK]) {
  const state = { providers, theme: "system" as View["theme"] };
  const bridge = new FakeBridge()
    .handle("settings/get", () => view(state.providers, state.theme))
    .handle("settings/set", (r) => {
      state.theme = r.theme ?? state.theme;
      return view(state.providers, state.theme);
    })
    .handle("settings/saveProvider", (r) => {
      const saved: ProviderView = {
        name: r.name,
        type: r.type,
        baseUrl: r.baseUrl ?? null,
        model: r.model ?? null,
        apiKeyEnv: null,
        extensionsBudget: r.extensionsBudget ?? null,
        hookContextBudget: r.hookContextBudget ?? null,
        key: r.type === "ollama" ? "not needed" : r.apiKey ? "set" : "not set",
        keySource: r.apiKey ? "stored" : null,
        source: "global",
      };
      const gone = r.previousName ?? r.name;
      state.providers = [...state.providers.filter((p) => p.name !== gone), saved];
      return view(state.providers, state.theme);
    })
    .handle("settings/removeProvider", ({ name }) => {
      state.providers = state.providers.filter((p) => p.name !== name);
      return view(state.providers, state.theme);
    });
  return { bridge, state };
}

const providers = () => screen.getByRole("region", { name: "Providers" });

function fill(form: HTMLElement, label: string, value: string): void {
  fireEvent.change(within(form).getByLabelText(label), { target: { value } });
}

async function shown(): Promise<ReturnType<typeof within>> {
  await within(await screen.findByRole("region", { name: "Providers" })).findByText("work-openai");
  return within(providers());
}

describe("Settings → Providers", () => {
  it("adds a provider from the form: what was typed is sent, and the list shows it", async () => {
    const { bridge } = engine();
    renderWith(bridge, <SettingsView />);
    const section = await shown();
    fireEvent.click(section.getByRole("button", { name: "Add provider" }));
    const form = section.getByRole("form", { name: "Add a provider" });
    fill(form, "Name", "home-ollama");
    fireEvent.change(within(form).getByLabelText("Type"), { target: { value: "ollama" } });
    fill(form, "Base URL", " http://127.0.0.1:11434 ");
    fill(form, "Extensions budget", "20");
    fill(form, "Hook context budget", "40");
    fireEvent.click(within(form).getByRole("button", { name: "Add provider" }));
    await section.findByText("home-ollama");
    const sent: CallRequest<"settings/saveProvider">[] = [
      {
        name: "home-ollama",
        type: "ollama",
        baseUrl: "http://127.0.0.1:11434",
        extensionsBudget: 20,
        hookContextBudget: 40,
      },
    ];
    assert.deepEqual(bridge.requests("settings/saveProvider"), sent);
    assert.equal(textOf(section.queryByRole("form", { name: "Add a provider" })), null);
    section.getByText("No key needed");
  });

  it("Add provider brings its form into view with the focus in its first field", async () => {
    const { bridge } = engine();
    renderWith(bridge, <SettingsView />);
    const section = await shown();
    const scrolled: string[] = [];
    // The DOM's own scrolling is recorded (happy-dom lays nothing out); the form is not faked.
    const original = HTMLElement.prototype.scrollIntoView;
    HTMLElement.prototype.scrollIntoView = function (this: HTMLElement) {
      scrolled.push(this.getAttribute("aria-label") ?? this.tagName);
    };
    try {
      fireEvent.click(section.getByRole("button", { name: "Add provider" }));
      await waitFor(() => assert.deepEqual(scrolled, ["Add a provider"]));
    } finally {
      HTMLElement.prototype.scrollIntoView = original;
    }
    const form = section.getByRole("form", { name: "Add a provider" });
    assert.equal(document.activeElement === within(form).getByLabelText("Name"), true);
  });

  it("edits a provider: a rename says the old name, and the stored key can be forgotten", async () => {
    const { bridge } = engine();
    renderWith(bridge, <SettingsView />);
    const section = await shown();
    section.getByText("Key set");
    fireEvent.click(section.getByRole("button", { name: "Edit work-openai" }));
    const form = section.getByRole("form", { name: "Edit work-openai" });
    assert.equal((within(form).getByLabelText("Base URL") as HTMLInputElement).value, WORK.baseUrl);
    within(form).getByText(/^A key is stored\. Type a new one to replace it\./);
    fill(form, "Name", "work");
    fireEvent.click(within(form).getByRole("checkbox", { name: "Forget the stored key" }));
    fireEvent.click(within(form).getByRole("button", { name: "Save" }));
    await section.findByText("Key not set");
    assert.deepEqual(bridge.requests("settings/saveProvider"), [
      {
        name: "work",
        type: "openai-compatible",
        baseUrl: "https://api.example.com/v1",
        model: "gpt-x",
        previousName: "work-openai",
        clearKey: true,
        extensionsBudget: null,
        hookContextBudget: null,
      },
    ]);
    assert.equal(textOf(section.queryByText("work-openai")), null);
  });

  it("a save the engine refuses keeps the form open and says why", async () => {
    const { bridge } = engine();
    bridge.handle("settings/saveProvider", () => {
      throw new Error("providers.yaml is read-only");
    });
    renderWith(bridge, <SettingsView />);
    const section = await shown();
    fireEvent.click(section.getByRole("button", { name: "Add provider" }));
    const form = section.getByRole("form", { name: "Add a provider" });
    fill(form, "Name", "cloud");
    fill(form, "Base URL", "https://llm.example.com/v1");
    fill(form, "API key", "sk-secret");
    fireEvent.click(within(form).getByRole("button", { name: "Add provider" }));
    const alert = await within(form).findByRole("alert");
    assert.match(alert.textContent ?? "", /providers\.yaml is read-only/);
    assert.equal((within(form).getByLabelText("API key") as HTMLInputElement).value, "sk-secret");
    assert.deepEqual(bridge.requests("settings/saveProvider"), [
      {
        name: "cloud",
        type: "openai-compatible",
        baseUrl: "https://llm.example.com/v1",
        apiKey: "sk-secret",
        extensionsBudget: null,
        hookContextBudget: null,
      },
    ]);
  });

  it("tests the draft being edited and shows what the server answered", async () => {
    const { bridge } = engine();
    bridge.handle("settings/testProvider", () => ({
      ok: true,
      message: "3 models",
      models: ["a", "b", "c"],
      ms: 40,
    }));
    renderWith(bridge, <SettingsView />);
    const section = await shown();
    fireEvent.click(section.getByRole("button", { name: "Add provider" }));
    const form = section.getByRole("form", { name: "Add a provider" });
    fill(form, "Name", "lab");
    fill(form, "Base URL", "http://10.0.0.5:8080/v1");
    fill(form, "Default model", "qwen3");
    fireEvent.click(within(form).getByRole("button", { name: "Test connection" }));
    const status = await within(form).findByRole("status");
    assert.equal(status.textContent, "✓ 3 models");
    assert.deepEqual(bridge.requests("settings/testProvider"), [
      {
        name: "lab",
        type: "openai-compatible",
        baseUrl: "http://10.0.0.5:8080/v1",
        model: "qwen3",
      },
    ]);
  });

  it("removes a provider only once confirmed", async () => {
    const { bridge } = engine();
    renderWith(bridge, <SettingsView />);
    const section = await shown();
    fireEvent.click(section.getByRole("button", { name: "Remove work-openai" }));
    const confirm = section.getByRole("group", { name: "Remove work-openai?" });
    assert.deepEqual(bridge.requests("settings/removeProvider"), []);
    fireEvent.click(within(confirm).getByRole("button", { name: "Remove" }));
    await section.findByText(/No providers configured/);
    assert.deepEqual(bridge.requests("settings/removeProvider"), [{ name: "work-openai" }]);
  });

  it("shows what another window changed when settings/changed arrives", async () => {
    const { bridge, state } = engine();
    renderWith(bridge, <SettingsView />);
    const section = await shown();
    state.providers = [...state.providers, { ...WORK, name: "added-elsewhere" }];
    act(() => bridge.emit("settings/changed", { section: "providers" }));
    await section.findByText("added-elsewhere");
  });
});

describe("Settings → Appearance", () => {
  it("the theme control saves the choice", async () => {
    const { bridge, state } = engine();
    renderWith(bridge, <SettingsView />);
    await shown();
    const appearance = within(screen.getByRole("region", { name: "Appearance" }));
    fireEvent.click(appearance.getByRole("radio", { name: "Dark" }));
    await waitFor(() => assert.deepEqual(bridge.requests("settings/set"), [{ theme: "dark" }]));
    await waitFor(() => assert.equal(state.theme, "dark"));
    assert.equal(
      (appearance.getByRole("radio", { name: "Dark" }) as HTMLInputElement).checked,
      true,
    );
  });
});
