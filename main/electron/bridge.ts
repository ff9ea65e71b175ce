/**
 * The bridge contract over Electron IPC, and the only main-side code that touches ipcMain (a lint
 * rule keeps it so). One handler per call and per stream of main/bridge/names.ts, each checking
 * that the sender is our window before the BridgeService validates the payload. Each webContents
 * is one client per page: events addressed to it go to it alone, and when its page goes away (a
 * reload or navigation, announced by the new page's preload; a crash; the window closed) its
 * streams are cancelled and its questions withdrawn. The engine starts
 * while the window loads, so calls wait for it (and fail with its start-up error if it could not).
 *
 * Outcomes cross as values (`Outcome`): Electron would keep only a thrown error's message.
 */
import { ipcMain, type IpcMainInvokeEvent, type WebContents } from "electron";
import { BridgeError, CallCancelled, type EventPayload, type Outcome } from "../bridge/contract.ts";
import type { BridgeHost } from "../bridge/host.ts";
import {
  CALL_NAMES,
  CANCEL_CHANNEL,
  CHUNK_CHANNEL,
  EVENT_CHANNEL,
  HELLO_CHANNEL,
  STREAM_NAMES,
  type EventName,
  callChannel,
  streamChannel,
} from "../bridge/names.ts";
import { toClient, type BridgeClient } from "../bridge/service.ts";
import { isTrustedSender } from "./security.ts";

interface IpcClient {
  connection: BridgeClient;
  /** In-flight streams by the preload's stream id. */
  streams: Map<number, AbortController>;
}

function outcomeOf(error: unknown): Outcome<never> {
  if (error instanceof CallCancelled) return { ok: false, cancelled: true };
  if (error instanceof BridgeError) return { ok: false, problem: error.problem };
  const title = error instanceof Error ? error.message : String(error);
  return { ok: false, problem: { source: "bridge", title } };
}

/** What the rest of the app may do through the bridge: speak to one window's page. */
export interface RegisteredBridge {
  /** Sends an event to the page in `contents` alone (validated like every event). */
  emitTo<E extends EventName>(contents: WebContents, event: E, payload: EventPayload<E>): void;
}

export function registerBridge(host: Promise<BridgeHost>): RegisteredBridge {
  const clients = new Map<number, IpcClient>();

  async function clientOf(contents: WebContents): Promise<IpcClient> {
    const { service } = await host;
    const known = clients.get(contents.id);
    if (known) return known;
    const client: IpcClient = {
      connection: service.connect({
        deliver: (event, payload) => {
          if (!contents.isDestroyed()) contents.send(EVENT_CHANNEL, event, payload);
        },
      }),
      streams: new Map(),
    };
    clients.set(contents.id, client);
    const end = () => endClient(contents);
    contents.on("render-process-gone", end);
    contents.once("destroyed", end);
    return client;
  }

  /** The page behind `contents` is gone (a new page loaded, a crash, the window closed). */
  function endClient(contents: WebContents): void {
    const client = clients.get(contents.id);
    if (!client) return;
    clients.delete(contents.id);
    client.connection.close();
  }

  /** The sender check and argument count every channel runs first. */
  function admit(name: string, event: IpcMainInvokeEvent, args: unknown[], count: number): void {
    if (!isTrustedSender(event))
      throw new Error(`${name}: refused, the sender is not this app's window`);
    if (args.length > count)
      throw new Error(`${name}: expected ${count} argument(s), got ${args.length}`);
  }

  for (const name of CALL_NAMES) {
    ipcMain.handle(callChannel(name), async (event, ...args: unknown[]) => {
      admit(name, event, args, 1);
      const { connection } = await clientOf(event.sender);
      return connection
        .call(name, args[0])
        .then((result): Outcome<unknown> => ({ ok: true, result }), outcomeOf);
    });
  }

  for (const name of STREAM_NAMES) {
    ipcMain.handle(streamChannel(name), async (event, ...args: unknown[]) => {
      admit(name, event, args, 2);
      const [streamId, payload] = args;
      if (typeof streamId !== "number" || !Number.isSafeInteger(streamId))
        throw new Error(`${name}: the stream id must be an integer`);
      const contents = event.sender;
      const client = await clientOf(contents);
      if (client.streams.has(streamId)) throw new Error(`${name}: stream ${streamId} is running`);
      const cancel = new AbortController();
      client.streams.set(streamId, cancel);
      const send = (chunk: unknown) => {
        if (!contents.isDestroyed()) contents.send(CHUNK_CHANNEL, streamId, chunk);
      };
      return client.connection
        .stream(name, payload, send, cancel.signal)
        .then((result): Outcome<unknown> => ({ ok: true, result }), outcomeOf)
        .finally(() => client.streams.delete(streamId));
    });
  }

  // The preload of every new page says hello before the page can call anything (same IPC pipe,
  // so in order): whatever the previous page had running ends with it.
  ipcMain.handle(HELLO_CHANNEL, (event, ...args: unknown[]) => {
    admit("hello", event, args, 0);
    endClient(event.sender);
  });

  ipcMain.handle(CANCEL_CHANNEL, (event, ...args: unknown[]) => {
    admit("cancel", event, args, 1);
    clients.get(event.sender.id)?.streams.get(Number(args[0]))?.abort();
  });

  return {
    emitTo(contents, event, payload) {
      void Promise.all([host, clientOf(contents)]).then(([{ service }, client]) =>
        service.emit(toClient(client.connection.id), event, payload),
      );
    },
  };
}

export function unregisterBridge(): void {
  for (const name of CALL_NAMES) ipcMain.removeHandler(callChannel(name));
  for (const name of STREAM_NAMES) ipcMain.removeHandler(streamChannel(name));
  ipcMain.removeHandler(CANCEL_CHANNEL);
  ipcMain.removeHandler(HELLO_CHANNEL);
}
