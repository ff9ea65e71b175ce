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

interface Proc {
  pid: number;
  ppid: number;
  pgrp: number;
  live: boolean;
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
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // "pid (comm) S ppid pgrp …"; comm may hold spaces and parentheses.
    const [state, ppid, pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    procs.push({
      pid: Number(name),
      ppid: Number(ppid),
      pgrp: Number(pgrp),
      live: state !== "Z" && state !== "X",
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
export function treeMembers(leader: number, marker: string | undefined): number[] {
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
  const live = new Set(procs.filter((p) => p.live).map((p) => p.pid));
  return [...found].filter((pid) => live.has(pid));
}
