/**
 * The one contract between the engine and the UI (SPEC §2): request/response calls and pushed
 * events, each with a zod schema. Main validates every payload both ways; the renderer uses the
 * inferred types. Two transports carry it unchanged: Electron IPC (main/electron/bridge.ts,
 * preload/) and a loopback WebSocket (websocket.ts, for `islet serve`).
 *
 * Plain data only, and nothing here imports Node or the engine: the renderer bundles this file.
 */
import { z } from "zod";
import type { CallName, EventName } from "./names.ts";

export const AppInfo = z.strictObject({
  name: z.string(),
  version: z.string(),
  /** "desktop": the Electron app; "browser": `islet serve`. */
  host: z.enum(["desktop", "browser"]),
  versions: z.strictObject({
    node: z.string(),
    electron: z.string().nullable(),
    chrome: z.string().nullable(),
  }),
  platform: z.string(),
  workdir: z.string(),
  home: z.string(),
});
export type AppInfo = z.infer<typeof AppInfo>;

export const SandboxBackend = z.strictObject({
  name: z.enum(["isolated-vm", "quickjs"]),
  /** One line: the flag, the features file, or the host's probe that chose it. */
  reason: z.string(),
});
export type SandboxBackend = z.infer<typeof SandboxBackend>;

export const PluginEntry = z.strictObject({
  name: z.string(),
  description: z.string(),
  status: z.enum(["active", "disabled", "failed", "errored"]),
  error: z.string().nullable(),
  reloadError: z.string().nullable(),
  source: z.enum(["global", "project"]),
  dir: z.string(),
  entry: z.string(),
  hooks: z.array(z.string()),
  condition: z.string().nullable(),
  once: z.boolean(),
  fired: z.array(z.string()),
  tool: z
    .strictObject({
      name: z.string(),
      parallel: z.boolean(),
      optIn: z.boolean(),
      override: z.boolean(),
    })
    .nullable(),
  command: z
    .strictObject({ name: z.string(), hints: z.string().nullable(), forward: z.boolean() })
    .nullable(),
  sdk: z.enum(["compatible", "incompatible", "unchecked"]),
  backend: SandboxBackend,
  warnings: z.array(z.string()),
  faults: z.number(),
  /** The most recent fault: which export, what happened, when (ISO time). */
  lastFault: z.strictObject({ call: z.string(), message: z.string(), at: z.string() }).nullable(),
  restarts: z.number(),
  heapBytes: z.number(),
  logFile: z.string().nullable(),
});
export type PluginEntry = z.infer<typeof PluginEntry>;

export const LoadProblem = z.strictObject({ file: z.string(), message: z.string() });

export const PluginList = z.strictObject({
  /** Null when plugins are off (--without-plugins). */
  backend: SandboxBackend.nullable(),
  plugins: z.array(PluginEntry),
  problems: z.array(LoadProblem),
});
export type PluginList = z.infer<typeof PluginList>;

export const ReloadResult = z.strictObject({
  name: z.string(),
  ok: z.boolean(),
  ms: z.number(),
  error: z.string().optional(),
});
export type ReloadResult = z.infer<typeof ReloadResult>;

const NoPayload = z.undefined();

export const CALLS = {
  "app/info": { request: NoPayload, response: AppInfo },
  "plugins/list": { request: NoPayload, response: PluginList },
  "plugins/reload": {
    request: NoPayload,
    response: z.strictObject({ reports: z.array(ReloadResult) }),
  },
  /** An errored plugin back to active in a fresh sandbox (without reloading the others). */
  "plugins/restart": {
    request: z.strictObject({ name: z.string().min(1) }),
    response: ReloadResult,
  },
} as const satisfies Record<CallName, { request: z.ZodType; response: z.ZodType }>;

export const EVENTS = {
  /** Plugins were reloaded or restarted (hot reload, /reload, Restart): the list is stale. */
  "plugins/changed": z.strictObject({
    /** "file-change": hot reload after an edit on disk; "reload": a full reload; "restart": one plugin. */
    cause: z.enum(["file-change", "reload", "restart"]),
    reports: z.array(ReloadResult),
  }),
  /** A one-line report about broken configuration (it never stops the engine). */
  "engine/warning": z.strictObject({ text: z.string() }),
} as const satisfies Record<EventName, z.ZodType>;

export type CallRequest<N extends CallName> = z.input<(typeof CALLS)[N]["request"]>;
export type CallResponse<N extends CallName> = z.output<(typeof CALLS)[N]["response"]>;
export type EventPayload<E extends EventName> = z.output<(typeof EVENTS)[E]>;

/** What the renderer talks to, whichever transport carries it. */
export interface Bridge {
  call<N extends CallName>(name: N, ...request: OptionalPayload<N>): Promise<CallResponse<N>>;
  /** Returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

/** Calls without a payload are called with the name alone. */
export type OptionalPayload<N extends CallName> =
  CallRequest<N> extends undefined ? [] : [request: CallRequest<N>];
