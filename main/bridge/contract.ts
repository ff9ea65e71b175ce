/**
 * The one contract between the engine and the UI (SPEC §2): request/response calls, streamed
 * calls (chunks, then one result) and pushed events, each with a zod schema. Main validates every
 * payload both ways; the renderer uses the inferred types. Two transports carry it unchanged:
 * Electron IPC (main/electron/bridge.ts, preload/) and a loopback WebSocket (websocket.ts, for
 * `islet serve`). README.md in this folder says how to add a call.
 *
 * Plain data only, and nothing here imports Node or the engine: the renderer bundles this file.
 */
import { z } from "zod";
import { AgentEvent } from "../core/events.ts";
import { SandboxBackendNameSchema } from "../core/sandbox-backends.ts";
import { formatProblem, Problem } from "../host/problem.ts";
import { ANSWERS, PermissionState, Question, type QuestionKind } from "../host/questions.ts";
import type { CallName, EventName, StreamName } from "./names.ts";
import { CommandEntry, CommandList } from "./schemas/commands.ts";
import { ChatEventPayload, ChatHistory } from "./schemas/chat.ts";
import { AgentsList, AgentsSelect } from "./schemas/agents.ts";
import { OutputStylesList, OutputStylesSelect } from "./schemas/output-styles.ts";
import { ExtensionComponent, ExtensionEntry } from "./schemas/extensions.ts";
import { ReloadResult } from "./schemas/reload.ts";
import {
  ModelDownload,
  ModelsAddFile,
  ModelsPickFile,
  ModelsCancelDownload,
  ModelsDelete,
  ModelsDownload,
  ModelsList,
  ModelsLocal,
  ModelsSelect,
} from "./schemas/models.ts";
import {
  SessionsChanged,
  SessionsDelete,
  SessionsExport,
  SessionsList,
  SessionsRename,
} from "./schemas/sessions.ts";
import {
  SettingsChanged,
  SettingsGet,
  SettingsRemoveProvider,
  SettingsSaveProvider,
  SettingsSet,
  SettingsTestProvider,
} from "./schemas/settings.ts";
import { EDITOR_CALLS, EDITOR_EVENTS } from "./schemas/editor.ts";
import { MCP_CALLS, MCP_EVENTS } from "./schemas/mcp.ts";
import { PACKS_CALLS, PACKS_EVENTS } from "./schemas/packs.ts";
import { ACTIVATION_CALLS, ACTIVATION_EVENTS } from "./schemas/activation.ts";
import { TRUST_CALLS } from "./schemas/trust.ts";

export { AgentEvent, Problem, Question };
export { CommandEntry, CommandList };

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
  name: SandboxBackendNameSchema,
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
  /** What `reloadError` (else `error`) is about, whole: the app shows each one's place. */
  problems: z.array(Problem),
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
  /** What plugin.yaml asks for and where each request stands (granted, denied, pending…). */
  permissions: z.array(PermissionState),
});
export type PluginEntry = z.infer<typeof PluginEntry>;

export const PluginList = z.strictObject({
  /** Null when plugins are off (--without-plugins). */
  backend: SandboxBackend.nullable(),
  plugins: z.array(PluginEntry),
  /** Files the loader could not use at all (bad manifests, duplicates), with file:line:column. */
  problems: z.array(Problem),
  /** Shell hook files and Claude Code plugins (absent: a host that lists none). */
  extensions: z.array(ExtensionEntry).optional(),
});
export { ExtensionComponent, ExtensionEntry };
export type PluginList = z.infer<typeof PluginList>;

export { ReloadResult };

/** A conversation is named by its session id (the one `islet sessions` lists). */
const ConversationId = z.string().min(1);
const QuestionId = z.string().min(1);

export const QuestionAsked = z.strictObject({
  id: QuestionId,
  /** The conversation whose turn asks; null for the engine's own questions (every window). */
  conversationId: ConversationId.nullable(),
  question: Question,
});
export type QuestionAsked = z.infer<typeof QuestionAsked>;

export const QuestionWithdrawn = z.strictObject({
  id: QuestionId,
  /** "answered": another window answered first; "stopped": the turn stopped; "closing": the engine. */
  reason: z.enum(["answered", "stopped", "closing"]),
});

const answerOf = <K extends QuestionKind>(kind: K) =>
  z.strictObject({ id: QuestionId, kind: z.literal(kind), answer: ANSWERS[kind] });

/** An answer, checked against the answers its kind takes (main/host/questions.ts ANSWERS). */
export const QuestionAnswer = z.discriminatedUnion("kind", [
  answerOf("approval"),
  answerOf("permissions"),
  answerOf("workspace-trust"),
  answerOf("plugin-activation"),
  answerOf("runner-install"),
  answerOf("pack-install"),
  answerOf("pack-update"),
]);
export type QuestionAnswer = z.infer<typeof QuestionAnswer>;
// A question kind without an answer shape here fails to compile.
const everyKindAnswerable: QuestionKind extends QuestionAnswer["kind"] ? true : never = true;
void everyKindAnswerable;

export const ChatOpened = z.strictObject({
  conversationId: ConversationId,
  agent: z.string(),
  title: z.string(),
  /** A saved session was opened (or joined, when another window has it open). */
  resumed: z.boolean(),
});
export type ChatOpened = z.infer<typeof ChatOpened>;

export const ChatOutcome = z.strictObject({
  /** How the agent's turn ended; null for a slash command that did not reach the model. */
  status: z.enum(["done", "max_steps", "stopped", "error", "skipped"]).nullable(),
  /** Text of the last model step. */
  text: z.string(),
  command: z.strictObject({ name: z.string(), output: z.string(), silent: z.boolean() }).nullable(),
  /** Why the turn failed (status "error"). */
  error: Problem.nullable(),
});
export type ChatOutcome = z.infer<typeof ChatOutcome>;

const NoPayload = z.undefined();

/** What the desktop app's menu asks the focused window to do. */
export const MENU_COMMANDS = ["new-chat", "settings"] as const;
export type MenuCommand = (typeof MENU_COMMANDS)[number];

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
  /** Answers a `question/asked` this client received; refused once it is answered or withdrawn. */
  "question/answer": { request: QuestionAnswer, response: NoPayload },
  /** A new conversation, or a saved session (id or unique prefix); this client joins it. */
  "chat/open": {
    request: z.strictObject({
      sessionId: z.string().min(1).optional(),
      agent: z.string().min(1).optional(),
    }),
    response: ChatOpened,
  },
  /** Stops the running turn: its `chat/send` ends with status "stopped". */
  "chat/stop": {
    request: z.strictObject({ conversationId: ConversationId }),
    response: z.strictObject({ stopped: z.boolean() }),
  },
  /** The slash commands for the composer: built-in and plugin ones, with hints; any client. */
  "commands/list": { request: NoPayload, response: CommandList },
  /** The display history of a conversation this client opened (schemas/chat.ts). */
  "chat/history": ChatHistory,
  "sessions/list": SessionsList,
  "sessions/rename": SessionsRename,
  "sessions/delete": SessionsDelete,
  "sessions/export": SessionsExport,
  "models/list": ModelsList,
  "models/select": ModelsSelect,
  /** The embedded runtime's models, the catalog and downloads under way; any client. */
  "models/local": ModelsLocal,
  /** Starts a download (progress to everyone as `models/download`); any client. */
  "models/download": ModelsDownload,
  /** Stops a download; its partial file stays for the next one. */
  "models/cancelDownload": ModelsCancelDownload,
  "models/addFile": ModelsAddFile,
  "models/pickFile": ModelsPickFile,
  /** Deletes a downloaded model; emits `settings/changed` (section models). */
  "models/delete": ModelsDelete,
  "agents/list": AgentsList,
  "agents/select": AgentsSelect,
  /** A conversation's output styles and the one it uses; the conversation's clients. */
  "outputStyles/list": OutputStylesList,
  /** Switches a conversation's output style (as /output-style); the conversation's clients. */
  "outputStyles/select": OutputStylesSelect,
  "settings/get": SettingsGet,
  "settings/set": SettingsSet,
  "settings/saveProvider": SettingsSaveProvider,
  "settings/removeProvider": SettingsRemoveProvider,
  "settings/testProvider": SettingsTestProvider,
  ...EDITOR_CALLS,
  ...MCP_CALLS,
  ...PACKS_CALLS,
  ...ACTIVATION_CALLS,
  ...TRUST_CALLS,
} as const satisfies Record<CallName, { request: z.ZodType; response: z.ZodType }>;

export const STREAMS = {
  /**
   * One prompt or slash command in a conversation this client opened: the agent's events as
   * chunks, the outcome last. Cancelling stops the turn (what was said is saved).
   */
  "chat/send": {
    request: z.strictObject({ conversationId: ConversationId, text: z.string().min(1) }),
    chunk: AgentEvent,
    result: ChatOutcome,
  },
} as const satisfies Record<
  StreamName,
  { request: z.ZodType; chunk: z.ZodType; result: z.ZodType }
>;

export const EVENTS = {
  /** A command from the desktop app's menu, to the focused window only (New Chat, Settings…). */
  "app/menu": z.strictObject({ command: z.enum(MENU_COMMANDS) }),
  /** Plugins were reloaded or restarted (hot reload, /reload, Restart): the list is stale. */
  "plugins/changed": z.strictObject({
    /**
     * "file-change": hot reload after an edit on disk; "reload": a full reload; "restart": one
     * plugin; "packs": a pack was installed, updated or removed (packs/*).
     */
    cause: z.enum(["file-change", "reload", "restart", "packs"]),
    reports: z.array(ReloadResult),
  }),
  /** Broken configuration (it never stops the engine), with its file:line:column when known. */
  "engine/warning": Problem,
  /** To the clients of the asking conversation, or to every client for the engine's own questions. */
  "question/asked": QuestionAsked,
  /** The question no longer needs this client's answer; the engine went on without it. */
  "question/withdrawn": QuestionWithdrawn,
  "sessions/changed": SessionsChanged,
  "settings/changed": SettingsChanged,
  /** A conversation's events, to its clients but the one streaming them (schemas/chat.ts). */
  "chat/event": ChatEventPayload,
  /** A model download started, progressed (at most 4 a second), ended, failed or was cancelled. */
  "models/download": ModelDownload,
  ...EDITOR_EVENTS,
  ...MCP_EVENTS,
  ...PACKS_EVENTS,
  ...ACTIVATION_EVENTS,
} as const satisfies Record<EventName, z.ZodType>;

export type CallRequest<N extends CallName> = z.input<(typeof CALLS)[N]["request"]>;
export type CallResponse<N extends CallName> = z.output<(typeof CALLS)[N]["response"]>;
export type StreamRequest<N extends StreamName> = z.input<(typeof STREAMS)[N]["request"]>;
export type StreamChunk<N extends StreamName> = z.output<(typeof STREAMS)[N]["chunk"]>;
export type StreamResult<N extends StreamName> = z.output<(typeof STREAMS)[N]["result"]>;
export type EventPayload<E extends EventName> = z.output<(typeof EVENTS)[E]>;

/** A refused or failed call; the message is the problem's one line (never a stack). */
export class BridgeError extends Error {
  override name = "BridgeError";
  readonly problem: Problem;
  constructor(problem: Problem) {
    super(formatProblem(problem));
    this.problem = problem;
  }
}

/** A streamed call its caller cancelled (named like fetch's, so `signal` users recognise it). */
export class CallCancelled extends Error {
  override name = "AbortError";
  constructor(name: string) {
    super(`${name}: cancelled`);
  }
}

/** How a call or stream ended, as it crosses a transport (errors are values, not throws). */
export type Outcome<T> =
  { ok: true; result: T } | { ok: false; problem: Problem } | { ok: false; cancelled: true };

export interface StreamOptions<N extends StreamName> {
  onChunk(chunk: StreamChunk<N>): void;
  /** Aborting cancels the call: the handler stops and the promise rejects with CallCancelled. */
  signal?: AbortSignal;
}

/** What the renderer talks to, whichever transport carries it. */
export interface Bridge {
  /** Rejects with BridgeError (its `problem` says what, where and what to do). */
  call<N extends CallName>(name: N, ...request: OptionalPayload<N>): Promise<CallResponse<N>>;
  /** Chunks go to `onChunk` in order; then the result, a BridgeError, or CallCancelled. */
  stream<N extends StreamName>(
    name: N,
    request: StreamRequest<N>,
    options: StreamOptions<N>,
  ): Promise<StreamResult<N>>;
  /** Events addressed to this client (or to everyone). Returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

/** Calls without a payload are called with the name alone. */
export type OptionalPayload<N extends CallName> =
  CallRequest<N> extends undefined ? [] : [request: CallRequest<N>];

/**
 * `window.islet` in the desktop app, as preload/index.ts exposes it: the contract's names only
 * (never ipcRenderer), outcomes as values because IPC keeps only an error's message.
 * renderer/src/bridge/ipc.ts turns it into a Bridge.
 */
export interface PreloadApi {
  call<N extends CallName>(name: N, payload?: CallRequest<N>): Promise<Outcome<CallResponse<N>>>;
  stream<N extends StreamName>(
    name: N,
    request: StreamRequest<N>,
    onChunk: (chunk: StreamChunk<N>) => void,
  ): { result: Promise<Outcome<StreamResult<N>>>; cancel(): void };
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}
