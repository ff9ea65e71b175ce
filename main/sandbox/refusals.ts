/** The faults a call gets before it reaches any sandbox: the same words for every backend. */
import { SandboxFault } from "./types.ts";

/** Called after dispose, or after the fatal fault (`cause`) that ended the sandbox. */
export function disposedFault(cause: SandboxFault | undefined): SandboxFault {
  const why = cause ? ` after a fault (${cause.kind}: ${cause.message})` : "";
  return new SandboxFault("disposed", `the sandbox was disposed${why}`);
}

/** Why a call to `name` cannot start, or undefined when it can. */
export function refusedCall(
  module: { dead: boolean; fault: SandboxFault | undefined; functions: ReadonlySet<string> },
  name: string,
): SandboxFault | undefined {
  if (module.dead) return disposedFault(module.fault);
  if (!module.functions.has(name))
    return new SandboxFault("exception", `the plugin has no exported function ${name}`);
  return undefined;
}
