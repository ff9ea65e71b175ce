/** The bridge over Electron IPC: the preload's `window.islet` (typed by the contract) as a Bridge. */
import "./zod-csp.ts";
import { CallCancelled, type Bridge, type PreloadApi } from "../../../main/bridge/contract.ts";
import { onAbort, settle } from "./outcome.ts";

/** Electron wraps handler errors as "Error invoking remote method 'islet:x': Error: …". */
function unwrap(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(message.replace(/^Error invoking remote method '[^']*': (?:\w*Error: )?/, ""));
}

export function ipcBridge(api: PreloadApi): Bridge {
  const fail = (error: unknown): never => {
    throw unwrap(error);
  };
  return {
    call: (name, ...request) =>
      api.call(name, request[0]).then((outcome) => settle(name, outcome), fail),
    stream(name, request, { onChunk, signal }) {
      if (signal?.aborted) return Promise.reject(new CallCancelled(name));
      const { result, cancel } = api.stream(name, request, onChunk);
      const unlink = onAbort(signal, cancel);
      return result.then((outcome) => settle(name, outcome), fail).finally(unlink);
    },
    on: (event, listener) => api.on(event, listener),
  };
}
