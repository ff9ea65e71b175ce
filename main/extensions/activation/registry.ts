/**
 * Every activatable plugin of every source, with its status (SPEC §8, seed 004): activating one
 * asks the user (the plugin-activation question, its consent details shown), runs its
 * `activate(scope)` and remembers the answer for the workspace; deactivating stops it and
 * releases its scope. The model's listing is a prompt fragment rebuilt only when something changed.
 */
import path from "node:path";
import { ask, type QuestionPort } from "../../host/questions.ts";
import { isInside } from "../../code-plugins/capabilities/files.ts";
import type { Disposable } from "../../lifecycle/disposable.ts";
import type { ContributionRegistrar, ScopedRegistrar } from "../../contributions/registrar.ts";
import type {
  ActivatablePlugin,
  ActivatableSource,
  ActivationEntry,
  ActivationStatus,
} from "./activatable.ts";
import { activationFragment, activationItems } from "./fragment.ts";
import { listingOf, type ListedItem } from "../../tools/listing.ts";
import type { ActivationStore } from "./store.ts";
import type { Problem } from "../../host/problem.ts";
import { changedFiles } from "../../trust/run-files.ts";

/** What an activation came to, as one line for the model or the user. */
export type ActivationOutcome =
  | { kind: "activated"; tools: string[]; line: string }
  | { kind: "denied" | "failed" | "unknown" | "held-back"; line: string };

export interface ActivationOptions {
  sources: readonly ActivatableSource[];
  /** Where each plugin's scope is opened (the engine's contributions). */
  registrar: ContributionRegistrar;
  store: ActivationStore;
  /** The project home (`<workdir>/.islet`): its plugins are held back unless `trusted`. */
  projectHome: string;
  globalHome: string;
  /** Read at each listing: a folder trusted meanwhile (refreshTrust) lets them activate. */
  readonly trusted: boolean;
  /** Who is asked when a call names nobody (the engine's port); missing: nobody (deny). */
  questions?: QuestionPort;
  /** Tool names now (to tell the model which tools an activation added). */
  toolNames(): string[];
  warn(problem: Problem): void;
}

interface Held {
  plugin: ActivatablePlugin;
  source: string;
  status: ActivationStatus;
  reason?: string;
  scope: ScopedRegistrar | null;
}

export class ActivationRegistry {
  private readonly opts: ActivationOptions;
  private held = new Map<string, Held>();
  /** Plugins being activated now: a second request waits for the first. */
  private readonly busy = new Map<string, Promise<ActivationOutcome>>();
  private fragment: { items: ListedItem[]; text: string; at: number } | null = null;
  private version = 0;
  private listed = "";
  private builds = 0;
  private readonly listeners = new Set<() => void>();

  constructor(opts: ActivationOptions) {
    this.opts = opts;
  }

  /** Rediscovers every source: new plugins are listed, vanished ones deactivated. */
  async refresh(): Promise<void> {
    const next = new Map<string, Held>();
    for (const source of this.opts.sources) {
      let found: Awaited<ReturnType<ActivatableSource["discover"]>>;
      try {
        found = await source.discover();
      } catch (err) {
        // A source that cannot list now keeps what it had; the others go on (never throws).
        this.opts.warn({
          source: source.id,
          title: `could not list its plugins: ${(err as Error).message}`,
        });
        for (const [name, held] of this.held) if (held.source === source.id) next.set(name, held);
        continue;
      }
      const { plugins, problems } = found;
      for (const p of problems) this.opts.warn(p);
      for (const plugin of plugins) {
        if (next.has(plugin.name)) {
          this.opts.warn({
            source: "activation",
            file: plugin.manifestFile,
            title: `another activatable plugin is named "${plugin.name}"`,
            cause: next.get(plugin.name)!.plugin.manifestFile,
            suggestion: "rename one",
          });
          continue;
        }
        const old = this.held.get(plugin.name);
        if (old && old.plugin.fingerprint === plugin.fingerprint && old.status !== "held-back") {
          // The same plugin: it keeps its status (an activation under way updates this object).
          old.plugin = plugin;
          old.source = source.id;
          next.set(plugin.name, old);
        } else next.set(plugin.name, this.fresh(plugin, source.id));
      }
    }
    // Gone from disk, or changed under an active plugin (consent covered the old manifest).
    for (const [name, old] of this.held)
      if (old.status === "active" && next.get(name)?.scope !== old.scope) await this.stop(old);
    this.held = next;
    this.changed();
  }

  private fresh(plugin: ActivatablePlugin, source: string): Held {
    const project = this.opts.projectHome !== this.opts.globalHome;
    if (
      project &&
      !this.opts.trusted &&
      isInside(path.resolve(plugin.manifestFile), this.opts.projectHome)
    )
      return {
        plugin,
        source,
        status: "held-back",
        reason:
          "a project plugin of a folder you have not trusted: trust it with `islet trust add` first",
        scope: null,
      };
    return { plugin, source, status: "inactive", scope: null };
  }

  list(): ActivationEntry[] {
    return [...this.held.values()]
      .map((h) => ({
        name: h.plugin.name,
        description: h.plugin.description,
        kind: h.plugin.kind,
        manifestFile: h.plugin.manifestFile,
        consentDetails: [...h.plugin.consentDetails],
        status: h.status,
        ...(h.reason ? { reason: h.reason } : {}),
        source: h.source,
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The model's listing; the same string until the set or a status changes. */
  fragmentText(): string {
    return this.built().text;
  }

  /** The listing's lines and text, built again only when the set or a status changed. */
  private built(): { items: ListedItem[]; text: string; at: number } {
    if (this.fragment?.at !== this.version) {
      this.builds++;
      const items = activationItems(this.list());
      this.fragment = { items, text: activationFragment(items), at: this.version };
    }
    return this.fragment;
  }

  /** How many times the listing was built (its cache is tested through this). */
  get fragmentBuilds(): number {
    return this.builds;
  }

  /** Called after every change of the set or of a status (the bridge pushes the new list). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Asks the user (unless already active), then activates. `questions`: who is asked (the
   * conversation's window, the terminal); else the registry's port; nobody = denied.
   */
  activate(
    name: string,
    how: { by: "model" | "user"; reason: string; questions?: QuestionPort; signal?: AbortSignal },
  ): Promise<ActivationOutcome> {
    const running = this.busy.get(name);
    if (running) return running;
    const started = this.activateNow(name, how).finally(() => this.busy.delete(name));
    this.busy.set(name, started);
    return started;
  }

  private async activateNow(
    name: string,
    how: { by: "model" | "user"; reason: string; questions?: QuestionPort; signal?: AbortSignal },
  ): Promise<ActivationOutcome> {
    // Read again unless active: what the question shows is the plugin as it is on disk now (a
    // script changed since it was listed asks as changed, not as the version listed before).
    if (this.held.get(name)?.status !== "active") await this.refresh();
    const held = this.held.get(name);
    if (!held) {
      const names = [...this.held.keys()].sort();
      return {
        kind: "unknown",
        line: `unknown plugin "${name}"; ${names.length ? `the plugins are: ${names.join(", ")}` : "there are no activatable plugins"}`,
      };
    }
    if (held.status === "held-back")
      return { kind: "held-back", line: `${name} is ${held.reason}` };
    if (held.status === "active")
      return { kind: "activated", tools: [], line: `${name} is already active` };
    const port = how.questions ?? this.opts.questions;
    const changed = await this.changedSinceAllowed(held.plugin);
    const { answer, answered } = await ask(
      port,
      {
        kind: "plugin-activation",
        plugin: name,
        pluginKind: held.plugin.kind,
        description: held.plugin.description,
        reason: how.reason || (how.by === "user" ? "you asked to activate it" : "no reason given"),
        details: [...(changed ? [changed] : []), ...held.plugin.consentDetails],
      },
      how.signal,
    );
    if (answer !== "allow")
      return {
        kind: "denied",
        line: answered
          ? `${name} was not activated: the user denied it`
          : `${name} was not activated: nobody could confirm it (headless runs need --yes)`,
      };
    const outcome = await this.start(held, how.signal);
    // Remembered for the workspace when a person said yes (not --yes: that holds for one run).
    if (outcome.kind === "activated" && !port?.automatic)
      await this.opts.store
        .record(name, held.plugin.fingerprint, held.plugin.runFiles)
        .catch((err: Error) =>
          this.opts.warn({
            source: "activation",
            title: `could not remember ${name}'s activation: ${err.message}`,
          }),
        );
    return outcome;
  }

  /**
   * The line heading the question when the workspace allowed an earlier version of the plugin:
   * which files it runs changed (or that its manifest did); undefined when never allowed here.
   */
  private async changedSinceAllowed(plugin: ActivatablePlugin): Promise<string | undefined> {
    const records = await this.opts.store.list().catch(() => []);
    const record = records.find((r) => r.plugin === plugin.name);
    if (!record || record.fingerprint === plugin.fingerprint) return undefined;
    const files = record.files ? changedFiles(record.files, plugin.runFiles ?? {}) : [];
    return files.length > 0
      ? `changed since you allowed it: ${files.join(", ")} (what its command runs)`
      : "changed since you allowed it: its manifest";
  }

  /** Runs the plugin's activate() in a new scope; a failure is its one line. */
  private async start(held: Held, signal?: AbortSignal): Promise<ActivationOutcome> {
    const name = held.plugin.name;
    const before = new Set(this.opts.toolNames());
    const scope = this.opts.registrar.scope();
    try {
      await held.plugin.activate(scope, signal);
    } catch (err) {
      scope.dispose();
      await held.plugin.deactivate().catch(() => undefined);
      const why = (err as Error).message.split("\n")[0];
      this.set(held, "failed", why);
      return { kind: "failed", line: `${name} failed to activate: ${why}` };
    }
    held.scope = scope;
    this.set(held, "active");
    const tools = this.opts.toolNames().filter((t) => !before.has(t));
    return {
      kind: "activated",
      tools,
      line: `${name} is active${tools.length ? `; its tools are available now: ${tools.join(", ")}` : ""}`,
    };
  }

  /** Deactivates and forgets the workspace's record; false when it was not active. */
  async deactivate(name: string): Promise<boolean> {
    const held = this.held.get(name);
    await this.opts.store
      .forget(name)
      .catch((err: Error) => this.opts.warn({ source: "activation", title: err.message }));
    if (held?.status !== "active") return false;
    await this.stop(held);
    this.set(held, "inactive");
    return true;
  }

  /**
   * Activates what the workspace's record says, without asking: a record for another
   * fingerprint (the manifest changed) is void and asks again next time.
   */
  async restore(): Promise<void> {
    for (const record of await this.opts.store.list()) {
      const held = this.held.get(record.plugin);
      if (!held || held.status !== "inactive") continue;
      if (held.plugin.fingerprint !== record.fingerprint) {
        const files = changedFiles(record.files ?? {}, held.plugin.runFiles ?? {});
        this.opts.warn({
          source: "activation",
          file: held.plugin.manifestFile,
          title: `${record.plugin} changed since it was activated`,
          ...(record.files && files.length
            ? { cause: `what it runs changed: ${files.join(", ")}` }
            : {}),
          suggestion: "it stays inactive until you allow it again",
        });
        continue;
      }
      const outcome = await this.start(held);
      // The line names the plugin first ("x failed to activate: …"): the plugin reports it.
      if (outcome.kind === "failed")
        this.opts.warn({ source: held.plugin.name, title: outcome.line });
    }
  }

  /**
   * (Re)loads: deactivates what runs, rediscovers, and re-activates what the workspace's record
   * says (the engine calls it once its sources are ready, and again after a full plugin reload).
   */
  async load(): Promise<void> {
    await this.deactivateAll();
    await this.refresh();
    await this.restore();
  }

  /** Deactivates everything (processes stopped) and keeps the records: session end, dispose. */
  async deactivateAll(): Promise<void> {
    for (const held of this.held.values())
      if (held.status === "active") {
        await this.stop(held);
        this.set(held, "inactive");
      }
  }

  /**
   * The listing as a prompt fragment, read at every model call (cached: fragmentText); a turn over
   * its prompt budget lists only the plugins it chose.
   */
  contributeFragment(): Disposable {
    const built = () => this.built();
    const listing = listingOf(() => built().items, activationFragment);
    return this.opts.registrar.promptFragment({
      source: "activation",
      get text() {
        return built().text;
      },
      listing,
    });
  }

  private async stop(held: Held): Promise<void> {
    try {
      await held.plugin.deactivate();
    } catch (err) {
      this.opts.warn({
        source: held.plugin.name,
        title: `deactivating failed: ${(err as Error).message}`,
      });
    }
    held.scope?.dispose();
    held.scope = null;
  }

  private set(held: Held, status: ActivationStatus, reason?: string): void {
    held.status = status;
    held.reason = reason;
    this.changed();
  }

  /** Bumps the listing's version only when the listing differs (a refresh finding the same keeps the cache). */
  private changed(): void {
    const key = JSON.stringify(this.list());
    if (key === this.listed) return;
    this.listed = key;
    this.version++;
    for (const listener of this.listeners) listener();
  }
}
