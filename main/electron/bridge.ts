/**
 * The bridge contract over Electron IPC: one ipcMain handler per call of main/bridge/names.ts,
 * each checking that the sender is our window before the BridgeService validates the payload;
 * pushed events go to our windows only. The engine starts while the window loads, so calls
 * wait for it (and fail with its start-up error if it could not start).
 */
import { ipcMain } from "electron";
import type { BridgeHost } from "../bridge/host.ts";
import { CALL_NAMES, callChannel, EVENT_CHANNEL } from "../bridge/names.ts";
import { isTrustedSender, trustedWebContents } from "./security.ts";

export function registerBridge(host: Promise<BridgeHost>): void {
  for (const name of CALL_NAMES) {
    ipcMain.handle(callChannel(name), async (event, ...args: unknown[]) => {
      if (!isTrustedSender(event))
        throw new Error(`${name}: refused, the sender is not this app's window`);
      if (args.length > 1) throw new Error(`${name}: expected one payload, got ${args.length}`);
      const { service } = await host;
      return service.call(name, args[0]);
    });
  }
  host.then(
    ({ service }) =>
      service.subscribe((event, payload) => {
        for (const contents of trustedWebContents()) contents.send(EVENT_CHANNEL, event, payload);
      }),
    () => {}, // the calls above report the start-up failure
  );
}

export function unregisterBridge(): void {
  for (const name of CALL_NAMES) ipcMain.removeHandler(callChannel(name));
}
