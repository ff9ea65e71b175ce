/** The bridge over Electron IPC: the preload's `window.islet`, typed by the contract. */
import type { Bridge } from "../../../main/bridge/contract.ts";
import type { PreloadApi } from "../../../main/bridge/names.ts";

/** Electron wraps handler errors as "Error invoking remote method 'islet:x': Error: …". */
function unwrap(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(message.replace(/^Error invoking remote method '[^']*': (?:\w*Error: )?/, ""));
}

export function ipcBridge(api: PreloadApi): Bridge {
  return {
    // The contract's types hold: main validated the response against the same schema.
    call: (name, ...request) =>
      api.call(name, request[0]).catch((error: unknown) => {
        throw unwrap(error);
      }) as never,
    on: (event, listener) => api.on(event, listener as (payload: unknown) => void),
  };
}
