/**
 * The embedded model runtime in an Electron utility process: the packaged app cannot run its own
 * binary as Node (the runAsNode fuse is off), and a utility process is Chromium's own way to host
 * code that may crash. Same messages as Node's fork (main/providers/local/runtime-spawn.ts); the
 * adapter is utility-runtime-child.ts.
 */
import { utilityProcess } from "electron";
import type { RuntimeSpawner } from "../providers/local/runtime-spawn.ts";
import { runtimeChildOf } from "./utility-runtime-child.ts";

export const utilityRuntimeSpawner: RuntimeSpawner = (script, args) =>
  runtimeChildOf(
    utilityProcess.fork(script, args, {
      serviceName: "Islet model runtime",
      stdio: ["ignore", "ignore", "pipe"],
    }),
  );
