/**
 * Stopping a command and everything it started: Bash, plugins' exec and `bash:` conditions spawn
 * their program as the leader of its own process group (POSIX), and stop it through here.
 *
 * `stop()` sends SIGTERM to the whole group (programs may clean up), SIGKILL after the grace
 * period to whatever ignored it, and resolves only once no live process of the group is left: a
 * tool result, or the process exiting, never leaves part of the tree running. (A SIGKILL
 * follow-up on an unref'd timer never fires when the process exits first; ENGINEERING §9.) If
 * the process exits while a group is still running (a second Ctrl-C), the group gets SIGKILL on
 * the way out.
 *
 * "Live": a killed process stays a zombie until its parent reaps it, and orphans are reaped by
 * PID 1, which in some containers never does. On Linux the tree counts as gone when only zombies
 * are left (from /proc); elsewhere when `kill(-pgid, 0)` finds nobody.
 *
 * Programs that leave the group (setsid, setpgid, a daemon's double fork) are found on Linux
 * through /proc and signalled one by one with the group (process-tree-members.ts). Elsewhere
 * (macOS) only the group is stopped.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { TREE_MARKER_VARIABLE, treeMembers } from "./process-tree-members.ts";

const isWindows = process.platform === "win32";
const isLinux = process.platform === "linux";

type Env = Record<string, string | undefined>;

/**
 * Spawn options: the child leads a process group of its own (POSIX), and its environment (`env`,
 * default this process's) carries a marker that its descendants inherit; stop() stops both.
 */
export function ownProcessGroup(env?: Env): { detached: boolean; env: Env } {
  const marker = randomBytes(12).toString("hex");
  return { detached: !isWindows, env: { ...(env ?? process.env), [TREE_MARKER_VARIABLE]: marker } };
}

/** SIGTERM → SIGKILL grace when the caller does not choose one. */
export const DEFAULT_KILL_GRACE_MS = 2_000;
/** After SIGKILL, how long to wait for the group to disappear (a process stuck in the kernel). */
const KILL_WAIT_MS = 5_000;
const POLL_MS = 25;

/** Group leader → its marker, for the exit hook. */
const running = new Map<number, string | undefined>();
let exitHookInstalled = false;

export class ProcessGroup {
  readonly #child: ChildProcess;
  readonly #marker: string | undefined;
  #stopping?: Promise<void>;

  /** Tracks `child`, spawned with `options` from ownProcessGroup(), until stopped or released. */
  constructor(child: ChildProcess, options?: { env: Env }) {
    this.#child = child;
    this.#marker = options?.env[TREE_MARKER_VARIABLE];
    if (child.pid !== undefined && !isWindows) {
      running.set(child.pid, this.#marker);
      installExitHook();
    }
  }

  /** The program finished by itself: its group is no longer ours to stop at exit. */
  release(): void {
    if (this.#child.pid !== undefined) running.delete(this.#child.pid);
  }

  /** SIGTERM, SIGKILL after `graceMs`, resolved once the whole tree is gone. Idempotent. */
  stop(graceMs = DEFAULT_KILL_GRACE_MS): Promise<void> {
    this.#stopping ??= this.#stop(graceMs).finally(() => this.release());
    return this.#stopping;
  }

  async #stop(graceMs: number): Promise<void> {
    const pid = this.#child.pid;
    if (pid === undefined) return;
    if (isWindows) return taskkill(this.#child);
    const marker = this.#marker;
    if (!signalTree(pid, marker, "SIGTERM")) return;
    if (await goneWithin(pid, marker, graceMs)) return;
    signalTree(pid, marker, "SIGKILL");
    await goneWithin(pid, marker, KILL_WAIT_MS);
  }
}

async function goneWithin(pgid: number, marker: string | undefined, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (!treeAlive(pgid, marker)) return true;
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Signals the group and, on Linux, every member of the tree; false when none was there. */
function signalTree(pgid: number, marker: string | undefined, signal: NodeJS.Signals): boolean {
  let any = signalGroup(pgid, signal);
  if (!isLinux) return any;
  for (const pid of treeMembers(pgid, marker)) {
    try {
      process.kill(pid, signal);
      any = true;
    } catch {
      // gone meanwhile
    }
  }
  return any;
}

function treeAlive(pgid: number, marker: string | undefined): boolean {
  if (isLinux) return treeMembers(pgid, marker).length > 0;
  return signalGroup(pgid, 0);
}

function taskkill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    const killer = spawn("taskkill", ["/T", "/F", "/PID", String(child.pid)], {
      windowsHide: true,
      stdio: "ignore",
    });
    killer.on("error", () => {
      child.kill();
      resolve();
    });
    killer.on("exit", () => resolve());
  });
}

/** Whatever is still running when the process exits (a second Ctrl-C) goes with it. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const [pgid, marker] of running) signalTree(pgid, marker, "SIGKILL");
  });
}
