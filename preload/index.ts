// Preload (sandboxed, CommonJS: out/preload/index.cjs). Exposes the bridge contract's calls and
// events by name as `window.islet`, never ipcRenderer itself; names outside the contract are
// refused here and payloads are validated in main (main/electron/bridge.ts).
import { contextBridge, ipcRenderer, type IpcRendererEvent } from "electron";
import {
  callChannel,
  EVENT_CHANNEL,
  isCallName,
  isEventName,
  type PreloadApi,
} from "../main/bridge/names.ts";

const api: PreloadApi = {
  call(name, payload) {
    if (!isCallName(name)) return Promise.reject(new Error(`unknown call ${String(name)}`));
    return ipcRenderer.invoke(callChannel(name), payload);
  },
  on(event, listener) {
    if (!isEventName(event)) throw new Error(`unknown event ${String(event)}`);
    const forward = (_e: IpcRendererEvent, name: unknown, payload: unknown) => {
      if (name === event) listener(payload);
    };
    ipcRenderer.on(EVENT_CHANNEL, forward);
    return () => void ipcRenderer.off(EVENT_CHANNEL, forward);
  },
};

contextBridge.exposeInMainWorld("islet", Object.freeze(api));
