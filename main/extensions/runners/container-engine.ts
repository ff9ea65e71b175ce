/**
 * Which container engine to use when a manifest does not name a runner config: docker or
 * podman, whichever is installed AND answers (`docker info` fails when its daemon is down, which
 * is the common case of "docker is installed" that cannot run anything).
 */
import { findProgram, runCheck } from "./probe.ts";

/** Engines in the order they are tried, and the built-in config each one uses. */
export const ENGINE_CONFIGS: readonly { engine: string; config: string }[] = [
  { engine: "docker", config: "docker-config" },
  { engine: "podman", config: "podman-config" },
];

const PROBE_TIMEOUT_MS = 20_000;

export interface EngineProbe {
  engine: string;
  installed: boolean;
  answers: boolean;
  /** Why not, in a few words ("not installed", "installed, but its engine does not answer: …"). */
  why: string;
}

export async function probeEngine(
  engine: string,
  opts: { env: NodeJS.ProcessEnv; cwd: string; signal?: AbortSignal },
): Promise<EngineProbe> {
  const program = await findProgram(engine, opts.env, opts.cwd);
  if (!program)
    return { engine, installed: false, answers: false, why: `${engine} is not installed` };
  const check = await runCheck([program, "info"], { ...opts, timeoutMs: PROBE_TIMEOUT_MS });
  if (check.ok) return { engine, installed: true, answers: true, why: "" };
  return {
    engine,
    installed: true,
    answers: false,
    why: `${engine} is installed but does not answer (${check.said || "`" + engine + " info` failed"})`,
  };
}

/** The first engine that answers, and what was found for every one tried. */
export async function detectContainerEngine(opts: {
  env: NodeJS.ProcessEnv;
  cwd: string;
  signal?: AbortSignal;
}): Promise<{ found?: { engine: string; config: string }; probes: EngineProbe[] }> {
  const probes: EngineProbe[] = [];
  for (const candidate of ENGINE_CONFIGS) {
    const probe = await probeEngine(candidate.engine, opts);
    probes.push(probe);
    if (probe.answers) return { found: candidate, probes };
  }
  return { probes };
}
