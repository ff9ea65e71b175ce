/**
 * Permissions are requests (SPEC §6): a plugin's sandbox gets only what the user granted. At each
 * discovery the gate gives every plugin the rights recorded for it (plus this run's "once"
 * answers) and queues a question for what is asked and not yet answered — only what is new when
 * an earlier grant exists. Questions are asked after loading, one at a time, so a host whose
 * user answers later (a dialog in the app) never blocks start-up; a plugin whose rights grew is
 * reloaded. In a folder the user has not trusted, the project's plugins get default rights and
 * are not asked about at all.
 */
import { describePermission } from "../../host/permission-text.ts";
import {
  ask,
  type PermissionItem,
  type PermissionState,
  type QuestionPort,
} from "../../host/questions.ts";
import { matchesPattern, type DiscoveredPlugin } from "../loader/discover.ts";
import { GrantStore, grantKey } from "./grants.ts";
import {
  effectiveRights,
  itemKey,
  requestedItems,
  requestHash,
  type EffectiveRights,
} from "./requests.ts";
import { formatProblem, type Problem } from "../../host/problem.ts";

export interface ConsentGateOptions {
  globalHome: string;
  /** Who answers; missing: nobody (every request stays ungranted for this run). */
  questions?: QuestionPort;
  /** Whether the workspace's own `.islet/` may widen anything (workspace trust). */
  trustedProject: boolean;
  warn(problem: Problem): void;
}

interface Pending {
  plugin: DiscoveredPlugin;
  key: string;
  /** Identifies the question while it is queued or being asked. */
  flight: string;
  items: PermissionItem[];
  asked: PermissionItem[];
  granted: PermissionItem[];
}

export class ConsentGate {
  readonly store: GrantStore;
  /** Called with the folders of plugins whose rights grew, to reload them. */
  onChanged: (dirs: string[]) => Promise<unknown> = async () => {};
  readonly #opts: ConsentGateOptions;
  readonly #once = new Map<string, Set<string>>();
  readonly #deniedThisRun = new Map<string, Set<string>>();
  readonly #queue: Pending[] = [];
  /** `key` + asked keys of questions queued or being asked (never asked twice at once). */
  readonly #inFlight = new Set<string>();
  readonly #noticed = new Set<string>();
  /** Each plugin's requests and where they stand, as of the last decide(). */
  readonly #states = new Map<string, PermissionState[]>();
  #settling: Promise<void> = Promise.resolve();
  /** On-demand plugins activated this run: their requests are asked about from now on. */
  readonly #wanted = new Set<string>();

  constructor(opts: ConsentGateOptions) {
    this.#opts = opts;
    this.store = new GrantStore(opts.globalHome, opts.warn);
  }

  /** Each plugin's rights now; what is unanswered is queued for `settle()`. */
  async decide(plugins: readonly DiscoveredPlugin[]): Promise<Map<string, EffectiveRights>> {
    const recorded = await this.store.all();
    const out = new Map<string, EffectiveRights>();
    const untrusted: string[] = [];
    for (const plugin of plugins) {
      const items = requestedItems(plugin.manifest);
      const key = await grantKey(plugin.dir);
      if (items.length > 0 && plugin.source === "project" && !this.#opts.trustedProject) {
        untrusted.push(plugin.name);
        this.#states.set(
          plugin.name,
          items.map((i) => ({ ...i, status: "held-back" })),
        );
        out.set(plugin.name, effectiveRights(plugin.manifest, new Set()));
        continue;
      }
      const granted = new Set([...(recorded[key]?.granted ?? []), ...(this.#once.get(key) ?? [])]);
      const denied = new Set([
        ...(recorded[key]?.denied ?? []),
        ...(this.#deniedThisRun.get(key) ?? []),
      ]);
      out.set(plugin.name, effectiveRights(plugin.manifest, granted));
      const recordedGrant = new Set(recorded[key]?.granted ?? []);
      this.#states.set(
        plugin.name,
        items.map((i) => {
          const k = itemKey(i);
          const status = recordedGrant.has(k)
            ? "granted"
            : granted.has(k)
              ? "granted-once"
              : denied.has(k)
                ? "denied"
                : "pending";
          return { ...i, status };
        }),
      );
      const asked = items.filter((i) => !granted.has(itemKey(i)) && !denied.has(itemKey(i)));
      if (asked.length === 0 || plugin.status !== "enabled") continue;
      // An on-demand plugin is asked about when it first loads: once activated (want()).
      if (plugin.manifest.activation === "on-demand" && !this.#wanted.has(plugin.name)) continue;
      const flight = `${key}\n${asked.map(itemKey).sort().join("\n")}`;
      if (this.#inFlight.has(flight)) continue;
      this.#inFlight.add(flight);
      const grantedItems = items.filter((i) => granted.has(itemKey(i)));
      this.#queue.push({ plugin, key, flight, items, asked, granted: grantedItems });
    }
    if (untrusted.length > 0)
      this.#noticeOnce({
        source: "permissions",
        title: `permissions of project plugins ${untrusted.join(", ")} held back: this folder is not trusted`,
        cause: "they run with default rights; `islet trust add` trusts it",
      });
    return out;
  }

  /** An on-demand plugin was activated: the next decide() asks about its requests. */
  want(plugin: string): void {
    this.#wanted.add(plugin);
  }

  /**
   * Whether the plugin may rewrite `tool`'s arguments without a person confirming each call:
   * its `permissions.rewrite` names the tool and was granted (for good, or this run by --yes).
   */
  rewriteGranted(plugin: string, tool: string): boolean {
    return this.permissionsOf(plugin).some(
      (st) =>
        st.kind === "rewrite" &&
        (st.status === "granted" || st.status === "granted-once") &&
        matchesPattern(tool, st.target),
    );
  }

  /** What the plugin asks for and where each request stands (empty: it asks for nothing). */
  permissionsOf(plugin: string): PermissionState[] {
    return this.#states.get(plugin) ?? [];
  }

  /** Asks what `decide` queued, then reloads the plugins whose rights grew. */
  settle(): Promise<void> {
    this.#settling = this.#settling
      .then(() => this.#drain())
      .catch((err: unknown) => {
        this.#opts.warn({
          source: "permissions",
          title: `asking about plugin permissions failed: ${(err as Error).message}`,
        });
      });
    return this.#settling;
  }

  async #drain(): Promise<void> {
    const changed: string[] = [];
    for (let next = this.#queue.shift(); next; next = this.#queue.shift()) {
      const { plugin, key, asked } = next;
      const keys = asked.map(itemKey);
      const port = this.#opts.questions;
      const { answer, answered } = await ask(port, {
        kind: "permissions",
        plugin: plugin.name,
        dir: plugin.dir,
        requested: asked,
        granted: next.granted,
      });
      this.#inFlight.delete(next.flight);
      const now: PermissionState["status"] | null =
        answer === "grant"
          ? "granted"
          : answer === "once"
            ? "granted-once"
            : answered
              ? "denied"
              : null;
      if (now)
        this.#states.set(
          plugin.name,
          this.permissionsOf(plugin.name).map((st) =>
            keys.includes(itemKey(st)) ? { ...st, status: now } : st,
          ),
        );
      const hash = requestHash(next.items);
      if (answer === "grant") {
        await this.store.record(key, { name: plugin.name, hash, granted: keys });
        changed.push(plugin.dir);
      } else if (answer === "once") {
        addAll(this.#once, key, keys);
        changed.push(plugin.dir);
      } else if (answered) {
        await this.store.record(key, { name: plugin.name, hash, denied: keys });
        this.#opts.warn({
          source: plugin.name,
          title: `not granted: ${asked.map(describePermission).join("; ")}`,
          cause: `it runs without them; \`islet plugins permissions ${plugin.name} --reset\` asks again`,
        });
      } else {
        addAll(this.#deniedThisRun, key, keys);
        this.#opts.warn({
          source: plugin.name,
          title: `${plugin.name} asks for ${asked.map(describePermission).join("; ")}: not granted, nobody to ask`,
          cause: "run at a terminal, or pass --yes for this run",
        });
      }
    }
    if (changed.length > 0) await this.onChanged(changed);
  }

  #noticeOnce(problem: Problem): void {
    const line = formatProblem(problem);
    if (this.#noticed.has(line)) return;
    this.#noticed.add(line);
    this.#opts.warn(problem);
  }
}

function addAll(map: Map<string, Set<string>>, key: string, values: string[]): void {
  const set = map.get(key) ?? new Set<string>();
  for (const v of values) set.add(v);
  map.set(key, set);
}
