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
import {
  stillRunning,
  TREE_MARKER_VARIABLE,
  treeMembers,
  type Member,
} from "./process-tree-members.ts";

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
    if (!isLinux) {
      if (!signalGroup(pid, "SIGTERM")) return;
      if (await groupGoneWithin(pid, graceMs)) return;
      signalGroup(pid, "SIGKILL");
      await groupGoneWithin(pid, KILL_WAIT_MS);
      return;
    }
    // The tree is read from /proc (a full scan: ~10 ms on a busy desktop) at each step; in
    // between, only the processes found are watched.
    const marker = this.#marker;
    const members = signalTree(pid, marker, "SIGTERM");
    if (members.length === 0) return;
    if ((await membersGoneWithin(members, graceMs)) && treeMembers(pid, marker).length === 0)
      return;
    // Twice: a process may have forked between the scan and its SIGKILL.
    for (let round = 0; round < 2; round++) {
      const left = signalTree(pid, marker, "SIGKILL");
      if (left.length === 0) return;
      await membersGoneWithin(left, KILL_WAIT_MS);
    }
  }
}

async function groupGoneWithin(pgid: number, ms: number): Promise<boolean> {
  return goneWithin(() => !signalGroup(pgid, 0), ms);
}

async function membersGoneWithin(members: readonly Member[], ms: number): Promise<boolean> {
  return goneWithin(() => !members.some(stillRunning), ms);
}

async function goneWithin(gone: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (gone()) return true;
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

/**
 * Linux: finds the tree (before signalling, so parent links are intact), then signals the group
 * and each process found. Returns what was found.
 */
function signalTree(pgid: number, marker: string | undefined, signal: NodeJS.Signals): Member[] {
  const members = treeMembers(pgid, marker);
  signalGroup(pgid, signal);
  for (const { pid } of members) {
    try {
      process.kill(pid, signal);
    } catch {
      // gone meanwhile
    }
  }
  return members;
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
    for (const [pgid, marker] of running) {
      if (isLinux) signalTree(pgid, marker, "SIGKILL");
      else signalGroup(pgid, "SIGKILL");
    }
  });
}
