// Preload (sandboxed, CommonJS: out/preload/index.cjs), and the only renderer-side code that
// touches ipcRenderer (a lint rule keeps it so). Exposes the bridge contract's calls, streams and
// events by name as `window.islet` (typed by PreloadApi in the contract), never ipcRenderer
// itself; names outside the contract are refused here and payloads are validated in main
// (main/electron/bridge.ts). The contract is imported for its types only: no zod in the preload.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from "electron";
import type { PreloadApi } from "../main/bridge/contract.ts";
import {
  CANCEL_CHANNEL,
  CHUNK_CHANNEL,
  EVENT_CHANNEL,
  HELLO_CHANNEL,
  callChannel,
  isCallName,
  isEventName,
  isStreamName,
  streamChannel,
} from "../main/bridge/names.ts";

let nextStream = 1;
const chunkListeners = new Map<number, (chunk: unknown) => void>();
ipcRenderer.on(CHUNK_CHANNEL, (_e: IpcRendererEvent, id: unknown, chunk: unknown) => {
  if (typeof id === "number") chunkListeners.get(id)?.(chunk);
});

const api: PreloadApi = {
  call(name, payload) {
    if (!isCallName(name)) return Promise.reject(new Error(`unknown call ${String(name)}`));
    return ipcRenderer.invoke(callChannel(name), payload);
  },
  stream(name, request, onChunk) {
    if (!isStreamName(name)) throw new Error(`unknown stream ${String(name)}`);
    const id = nextStream++;
    chunkListeners.set(id, onChunk as (chunk: unknown) => void);
    const result = ipcRenderer
      .invoke(streamChannel(name), id, request)
      .finally(() => chunkListeners.delete(id));
    const cancel = () => {
      ipcRenderer.invoke(CANCEL_CHANNEL, id).catch(() => undefined); // the stream already ended
    };
    return { result, cancel };
  },
  on(event, listener) {
    if (!isEventName(event)) throw new Error(`unknown event ${String(event)}`);
    const forward = (_e: IpcRendererEvent, name: unknown, payload: unknown) => {
      if (name === event) (listener as (payload: unknown) => void)(payload);
    };
    ipcRenderer.on(EVENT_CHANNEL, forward);
    return () => void ipcRenderer.off(EVENT_CHANNEL, forward);
  },
};

// A new page: main ends whatever the previous page of this window had running (before any call).
ipcRenderer.invoke(HELLO_CHANNEL).catch(() => undefined);
contextBridge.exposeInMainWorld("islet", Object.freeze(api));
