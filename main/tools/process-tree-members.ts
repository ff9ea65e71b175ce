/**
 * Linux: which live processes belong to a command, from /proc. A process group alone misses the
 * ones that leave it (setsid, setpgid, a daemon's double fork), so a command's tree is:
 * - its process group;
 * - the descendants of its leader and of every member found (parent links: a setsid child is
 *   found while its parent lives);
 * - every process whose environment carries the command's marker (ownProcessGroup puts it
 *   there): a double fork re-parented to init keeps its environment, so it is found too,
 *   with its descendants.
 * Without root nothing else is reliable: a child subreaper needs prctl (not reachable from Node)
 * and a cgroup needs a delegated, writable hierarchy that desktops rarely give. What escapes
 * all three is a double fork that also clears its environment (`env -i`).
 */
import { readdirSync, readFileSync } from "node:fs";

/** Environment variable that tags every process a command starts. */
export const TREE_MARKER_VARIABLE = "ISLET_PROCESS_TREE";

/** A process as found: its pid and start time, so a reused pid is not taken for it. */
export interface Member {
  pid: number;
  start: string;
}

interface Proc extends Member {
  ppid: number;
  pgrp: number;
  live: boolean;
}

/** /proc/PID/stat after "(comm) ": state, ppid, pgrp, …, starttime (field 22, index 19). */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // comm may hold spaces and parentheses: the fields start after the last ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined; // gone meanwhile
  }
}

const isLive = (state: string | undefined) => state !== "Z" && state !== "X";

/** Still running (not a zombie), and the same process that was found. */
export function stillRunning(member: Member): boolean {
  const fields = statFields(member.pid);
  return fields !== undefined && isLive(fields[0]) && fields[19] === member.start;
}

function readProcs(): Proc[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  const procs: Proc[] = [];
  for (const name of names) {
    const first = name.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    const fields = statFields(name);
    if (fields === undefined) continue;
    procs.push({
      pid: Number(name),
      start: fields[19] ?? "",
      ppid: Number(fields[1]),
      pgrp: Number(fields[2]),
      live: isLive(fields[0]),
    });
  }
  return procs;
}

function carriesMarker(pid: number, tag: string): boolean {
  try {
    // Only our own processes are readable; others fail fast with EACCES.
    const environ = readFileSync(`/proc/${pid}/environ`, "latin1");
    return environ.startsWith(tag) || environ.includes(`\0${tag}`);
  } catch {
    return false;
  }
}

/** The live processes of the command led by `leader` (process group `leader`). */
export function treeMembers(leader: number, marker: string | undefined): Member[] {
  const procs = readProcs();
  const children = new Map<number, number[]>();
  for (const p of procs) {
    const list = children.get(p.ppid);
    if (list) list.push(p.pid);
    else children.set(p.ppid, [p.pid]);
  }
  const tag = marker === undefined ? undefined : `${TREE_MARKER_VARIABLE}=${marker}\0`;
  const found = new Set<number>();
  const queue: number[] = [];
  for (const p of procs) {
    if (p.pid === process.pid) continue;
    if (p.pgrp === leader || (tag !== undefined && carriesMarker(p.pid, tag))) {
      found.add(p.pid);
      queue.push(p.pid);
    }
  }
  while (queue.length > 0) {
    for (const child of children.get(queue.pop()!) ?? []) {
      if (found.has(child) || child === process.pid) continue;
      found.add(child);
      queue.push(child);
    }
  }
  return procs.filter((p) => p.live && found.has(p.pid)).map(({ pid, start }) => ({ pid, start }));
}
