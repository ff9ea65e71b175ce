/**
 * The hook points, in the order a turn reaches them, and how each is named: by plugins and the
 * `/plugins` listing (`title`), in the app's hook timeline (`label`) and under which heading the
 * plugin browser groups it (`phase`). main/turn/hooks/types.ts keys each point's context and
 * result by these. Plain data and zod: the renderer bundles it.
 */
import { z } from "zod";

export const HookTimingSchema = z.enum([
  "beforeChat",
  "afterResponse",
  "beforeToolExecution",
  "afterToolExecution",
  "onError",
  "beforeCompaction",
  "afterCompaction",
  "onAgentSwitch",
  "transformMessages",
]);

export type HookTimingName = z.infer<typeof HookTimingSchema>;

export interface HookTimingRow {
  /** The hook's name as plugins and Aura's guide spell it ("BeforeToolExecution"). */
  readonly title: string;
  /** What the hook timeline says of a call at this point ("before a tool"). */
  readonly label: string;
  /** The plugin browser's heading for it; phases are listed in the order their first point comes. */
  readonly phase: string;
}

/** Keyed by timing: a timing without its row does not compile. */
export const HOOK_TIMING_TABLE: Readonly<Record<HookTimingName, HookTimingRow>> = {
  beforeChat: { title: "BeforeChat", label: "before the model", phase: "Before the model" },
  afterResponse: {
    title: "AfterResponse",
    label: "after the response",
    phase: "After the response",
  },
  beforeToolExecution: {
    title: "BeforeToolExecution",
    label: "before a tool",
    phase: "Around tool calls",
  },
  afterToolExecution: {
    title: "AfterToolExecution",
    label: "after a tool",
    phase: "Around tool calls",
  },
  onError: { title: "OnError", label: "on an error", phase: "On errors" },
  beforeCompaction: {
    title: "BeforeCompaction",
    label: "before compaction",
    phase: "Compaction",
  },
  afterCompaction: { title: "AfterCompaction", label: "after compaction", phase: "Compaction" },
  onAgentSwitch: { title: "OnAgentSwitch", label: "on agent switch", phase: "Agent switch" },
  transformMessages: {
    title: "TransformMessages",
    label: "transforming messages",
    phase: "Before the model",
  },
};

/** The timings under each phase heading, phases in the order a turn first reaches them. */
export function hookPhases(): { label: string; hooks: HookTimingName[] }[] {
  const phases: { label: string; hooks: HookTimingName[] }[] = [];
  for (const timing of HookTimingSchema.options) {
    const label = HOOK_TIMING_TABLE[timing].phase;
    const phase = phases.find((p) => p.label === label);
    if (phase) phase.hooks.push(timing);
    else phases.push({ label, hooks: [timing] });
  }
  return phases;
}
