/**
 * The engine's workspace trust while it runs: the trust record is read again when it changes
 * (`islet trust add|revoke`, the app's Settings), and a change in either direction is applied at
 * once by the engine's `apply` (project commands, skills, agents, shell hooks, MCP servers, runner
 * plugins in or out). Changes run one at a time: the app's call and the trust-file watcher may
 * both ask.
 */
import type { Homes } from "../config/homes.ts";
import { TrustStore } from "../trust/store.ts";
import { runnableSurface } from "../trust/surface.ts";
import { recordedTrust, type WorkspaceTrust } from "../trust/workspace-trust.ts";
import type { Problem, ProblemSink } from "../host/problem.ts";

export class LiveTrust {
  private state: WorkspaceTrust;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly homes: Homes;
  private readonly apply: () => Promise<void>;
  private readonly warn: ProblemSink;

  constructor(opts: {
    homes: Homes;
    /** Missing: not trusted. */
    initial?: WorkspaceTrust;
    /** Brings the project's parts in or takes them away, after a change either way. */
    apply(): Promise<void>;
    warn(problem: Problem): void;
  }) {
    this.homes = opts.homes;
    this.apply = opts.apply;
    this.warn = opts.warn;
    this.state = opts.initial ?? { trusted: false, why: "not trusted", heldBack: [] };
  }

  get current(): WorkspaceTrust {
    return this.state;
  }

  /** Reads the record again and applies a change; true when trusted. */
  refresh(): Promise<boolean> {
    const run = this.queue.then(async () => {
      const next = await recordedTrust(this.homes, this.state, this.warn);
      const changed = next.trusted !== this.state.trusted;
      this.state = next;
      if (changed) await this.apply();
      return next.trusted;
    });
    this.queue = run.catch(() => {});
    return run;
  }

  /** Records the user's decision on the workspace folder and applies it now. */
  async set(trusted: boolean): Promise<WorkspaceTrust> {
    if (this.homes.project === this.homes.global)
      throw new Error(
        `${this.homes.workdir}: its .islet/ is the global home, which is always trusted; open a project folder to change its trust`,
      );
    await new TrustStore(this.homes.global, this.warn).record(
      this.homes.workdir,
      trusted ? "trusted" : "untrusted",
      trusted ? await runnableSurface(this.homes) : undefined,
    );
    await this.refresh();
    return this.state;
  }
}
