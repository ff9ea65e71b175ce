/**
 * Code plugins whose plugin.yaml says `activation: on-demand` as activatable plugins: the plugin
 * runtime discovers them without loading; activating one loads it into the runtime (its hooks,
 * tool and command serve from the next model call), deactivating unloads it (sandbox disposed).
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { describePermission } from "../../host/permission-text.ts";
import type { Problem } from "../../host/problem.ts";
import { requestedItems } from "../../code-plugins/consent/requests.ts";
import { parseManifest } from "../../code-plugins/loader/manifest.ts";
import type { ConsentGate } from "../../code-plugins/consent/gate.ts";
import type { OnDemandPlugins } from "../../code-plugins/runtime/on-demand.ts";
import type { PluginRuntime } from "../../code-plugins/runtime/runtime.ts";
import type { PluginSpec } from "../../code-plugins/runtime/port.ts";
import type { ActivatablePlugin, ActivatableSource } from "./activatable.ts";

/** The runtime's side this source needs (the engine's current runtime, or none). */
export interface OnDemandRuntime extends Pick<PluginRuntime, "reloadChanged"> {
  readonly onDemand: Pick<OnDemandPlugins, "list" | "activate" | "deactivate">;
}

/** The consent gate's side: permission requests are asked when a plugin first loads. */
export type OnDemandConsent = Pick<ConsentGate, "want" | "settle">;

export class CodePluginSource implements ActivatableSource {
  readonly id = "code-plugins";
  private readonly runtime: () => OnDemandRuntime | null;
  private readonly consent: OnDemandConsent | null;

  /** `runtime` is read at each call: the engine replaces its runtime on a full reload. */
  constructor(runtime: () => OnDemandRuntime | null, consent: OnDemandConsent | null = null) {
    this.runtime = runtime;
    this.consent = consent;
  }

  async discover(): Promise<{
    plugins: ActivatablePlugin[];
    problems: Problem[];
  }> {
    const runtime = this.runtime();
    if (!runtime) return { plugins: [], problems: [] };
    const problems: Problem[] = [];
    const plugins: ActivatablePlugin[] = [];
    for (const spec of runtime.onDemand.list()) {
      try {
        plugins.push(await this.plugin(spec));
      } catch (err) {
        problems.push({
          source: "activation",
          file: spec.manifestFile,
          title: (err as Error).message,
        });
      }
    }
    return { plugins, problems };
  }

  private async plugin(spec: PluginSpec): Promise<ActivatablePlugin> {
    // Consent covers what plugin.yaml says (its permissions above all): any edit asks again.
    const text = await readFile(spec.manifestFile, "utf8");
    const read = parseManifest(text, spec.manifestFile);
    const asked = read.ok ? requestedItems(read.manifest) : [];
    const fingerprint = createHash("sha256")
      .update(spec.dir)
      .update("\0")
      .update(text)
      .digest("hex");
    const name = spec.name;
    return {
      name,
      description: spec.description,
      kind: "code",
      manifestFile: spec.manifestFile,
      consentDetails: [
        `runs sandboxed JavaScript from ${spec.dir}`,
        asked.length === 0
          ? "asks for no permissions beyond the sandbox's defaults"
          : `asks for: ${asked.map(describePermission).join("; ")}`,
      ],
      fingerprint,
      activate: async () => {
        const runtime = this.runtime();
        if (!runtime) throw new Error("plugins are not loaded (--without-plugins?)");
        await runtime.onDemand.activate(name);
        if (this.consent && asked.length > 0) {
          // Its permission requests are asked now that it loads (SPEC §6); a grant reloads it
          // with them. Rediscovering queues the question; it is answered in the background (as
          // at start-up), so a dialog answered later never holds up the turn or the start.
          this.consent.want(name);
          await runtime.reloadChanged([]);
          void this.consent.settle();
        }
      },
      deactivate: async () => {
        this.runtime()?.onDemand.deactivate(name);
      },
    };
  }
}
