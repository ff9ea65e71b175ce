// ipcMain wiring: every handler checks its sender, validates the request with zod, and
// validates its own response before it crosses back. Errors reach the renderer as a rejected
// promise with a message that says what was wrong, never a stack.
import { ipcMain, type IpcMainInvokeEvent } from "electron";
import { z } from "zod";
import type { Channel } from "./channels.ts";
import { isTrustedSender } from "./security.ts";

export function handle<Req, Res>(
  channel: Channel,
  schemas: { request: z.ZodType<Req>; response: z.ZodType<Res> },
  handler: (request: Req, event: IpcMainInvokeEvent) => Res | Promise<Res>,
): void {
  ipcMain.handle(channel, async (event, ...args: unknown[]) => {
    if (!isTrustedSender(event)) {
      throw new Error(`${channel}: refused, the sender is not this app's window`);
    }
    if (args.length > 1) throw new Error(`${channel}: expected one payload, got ${args.length}`);
    const parsed = schemas.request.safeParse(args[0]);
    if (!parsed.success) {
      throw new Error(`${channel}: invalid payload: ${z.prettifyError(parsed.error)}`);
    }
    const result = await handler(parsed.data, event);
    const checked = schemas.response.safeParse(result);
    if (!checked.success) {
      console.error(`[islet] ${channel} produced an invalid response`, checked.error.issues);
      throw new Error(`${channel}: internal error (invalid response)`);
    }
    return checked.data;
  });
}

export function unhandle(channel: Channel): void {
  ipcMain.removeHandler(channel);
}
