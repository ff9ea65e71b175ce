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
 * PID 1, which in some containers never does. On Linux the group counts as gone when only
 * zombies are left (from /proc); elsewhere when `kill(-pgid, 0)` finds nobody.
 * A program that leaves the group on purpose (setsid, a daemon) is beyond this.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const isWindows = process.platform === "win32";

/** Spawn option: the child leads a process group of its own (POSIX), which stop() signals. */
export const OWN_PROCESS_GROUP = { detached: !isWindows } as const;

/** SIGTERM → SIGKILL grace when the caller does not choose one. */
export const DEFAULT_KILL_GRACE_MS = 2_000;
/** After SIGKILL, how long to wait for the group to disappear (a process stuck in the kernel). */
const KILL_WAIT_MS = 5_000;
const POLL_MS = 25;

const running = new Set<number>();
let exitHookInstalled = false;

export class ProcessGroup {
  readonly #child: ChildProcess;
  #stopping?: Promise<void>;

  /** Tracks `child` (spawned with OWN_PROCESS_GROUP) until it is stopped or released. */
  constructor(child: ChildProcess) {
    this.#child = child;
    if (child.pid !== undefined && !isWindows) {
      running.add(child.pid);
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
    if (!signalGroup(pid, "SIGTERM")) return;
    if (await goneWithin(pid, graceMs)) return;
    signalGroup(pid, "SIGKILL");
    await goneWithin(pid, KILL_WAIT_MS);
  }
}

async function goneWithin(pgid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (!groupAlive(pgid)) return true;
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

function groupAlive(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  return process.platform !== "linux" || hasLiveMember(pgid);
}

/** Linux: a process of group `pgid` that is not a zombie (/proc/PID/stat: "pid (comm) S ppid pgrp …"). */
function hasLiveMember(pgid: number): boolean {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return true;
  }
  for (const name of names) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z" && state !== "X") return true;
  }
  return false;
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
    for (const pgid of running) signalGroup(pgid, "SIGKILL");
  });
}
