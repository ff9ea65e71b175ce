/**
 * What listing 50 skills and 20 custom commands adds to every model call: the engine reads the
 * prompt fragments (the skill listing among them), describes the tools (Skill, Task) and
 * serializes both into the request. Measured on two real engines, one with empty homes (the
 * baseline) and one with the skills and commands in its global home; the figure is the
 * difference per call. Also: rebuilding the listing after a skill or command changes.
 *
 * Run alone: node --no-node-snapshot bench/one.ts markdown
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Engine } from "../main/engine/engine.ts";
import { resolveHomes } from "../main/config/homes.ts";
import { toolSpec } from "../main/tools/types.ts";
import type { AgentConfig } from "../main/agents/definition.ts";
import type { ResolvedModel } from "../main/turn/state.ts";
import { ProblemError } from "../main/host/problem.ts";

const SKILLS = 50;
const COMMANDS = 20;
const CALLS = 2000;

function engineWith(skills: number, commands: number): { engine: Engine; clean(): void } {
  const root = mkdtempSync(join(tmpdir(), "islet-mdbench-"));
  const home = join(root, "home");
  for (let i = 0; i < skills; i++) {
    mkdirSync(join(home, "skills", `skill-${i}`), { recursive: true });
    writeFileSync(
      join(home, "skills", `skill-${i}`, "SKILL.md"),
      `---\nname: skill-${i}\ndescription: Does task number ${i} of the project's routine work, in a sentence of about this length.\n---\n${"Instructions. ".repeat(200)}`,
    );
  }
  mkdirSync(join(home, "config", "commands"), { recursive: true });
  for (let i = 0; i < commands; i++)
    writeFileSync(
      join(home, "config", "commands", `cmd-${i}.md`),
      `---\ndescription: Command ${i}\nargument-hint: <what>\n---\nDo $ARGUMENTS.`,
    );
  const engine = new Engine({
    homes: resolveHomes({ home, workdir: root }),
    env: {},
    resolveModel: (_agent: AgentConfig): Promise<ResolvedModel> => {
      throw new Error("no model in this benchmark");
    },
    warn: (problem) => {
      throw new ProblemError(problem);
    },
  });
  return { engine, clean: () => rmSync(root, { recursive: true, force: true }) };
}

/** The per-call work that depends on what is listed; returns a length so nothing is optimised away. */
function prepare(engine: Engine): number {
  const system = ["You are Islet.", ...engine.extensions.promptFragments.texts()]
    .filter((p) => p.trim() !== "")
    .join("\n\n");
  const tools = engine.tools.list().map(toolSpec);
  return JSON.stringify({ system, tools }).length;
}

/** Median per-call time of each function, their batches interleaved so drift hits both alike. */
function medianPerCall(fns: (() => number)[], batches = 31, perBatch = CALLS / 20): number[] {
  const samples: number[][] = fns.map(() => []);
  let sink = 0;
  for (let b = 0; b < batches; b++) {
    fns.forEach((fn, k) => {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < perBatch; i++) sink += fn();
      samples[k].push(Number(process.hrtime.bigint() - t0) / 1e6 / perBatch);
    });
  }
  if (sink < 0) console.error(sink);
  return samples.map((s) => s.sort((a, b) => a - b)[s.length >> 1]);
}

export interface MarkdownBench {
  baseMs: number;
  withMs: number;
  rebuildMs: number;
  listedChars: number;
}

export async function benchMarkdownListing(): Promise<MarkdownBench> {
  const base = engineWith(0, 0);
  const full = engineWith(SKILLS, COMMANDS);
  try {
    for (let i = 0; i < 500; i++) {
      prepare(base.engine);
      prepare(full.engine);
    }
    // A change (a skill edited, a plugin loaded) rebuilds the listing once, at the next call.
    const probe = {
      name: "probe",
      description: "",
      source: "custom" as const,
      run: async () => ({ output: "" }),
    };
    const [baseMs, withMs, rebuildMs] = medianPerCall([
      () => prepare(base.engine),
      () => prepare(full.engine),
      () => {
        full.engine.commands.register(probe).dispose();
        return prepare(full.engine);
      },
    ]);
    return { baseMs, withMs, rebuildMs, listedChars: prepare(full.engine) - prepare(base.engine) };
  } finally {
    base.clean();
    full.clean();
  }
}

if (import.meta.main) console.log(await benchMarkdownListing());
