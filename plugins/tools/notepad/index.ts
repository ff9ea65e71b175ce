/**
 * notepad: the seed's Notepad tool. `read` returns a file's content and records it as seen by
 * the model; `write` replaces it, guarded: an existing file must have been read first (and not
 * changed since), exactly like the built-in Write. Paths are relative to the workspace.
 */
import { fs } from "@islet/sdk";
import type { Context, ToolPaths, ToolSchema } from "@islet/sdk";

export function schema(): ToolSchema {
  return {
    name: "Notepad",
    description: "Read or write a scratch file.",
    parameters: {
      type: "object",
      properties: {
        action: { type: "string", description: "read or write", enum: ["read", "write"] },
        path: { type: "string", description: "File path" },
        content: { type: "string", description: "Content to write (required for write action)" },
      },
      required: ["action", "path"],
    },
  };
}

/** UTF-8 length, as the seed reports bytes written. */
function utf8Bytes(text: string): number {
  let bytes = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

export async function execute(_ctx: Context, args: Record<string, unknown>): Promise<string> {
  const action = args.action as string;
  const path = args.path as string;

  switch (action) {
    case "read":
      return await fs.readFile(path);
    case "write": {
      const content = args.content;
      if (typeof content !== "string") throw new Error("content is required for write action");
      await fs.writeFile(path, content);
      return `wrote ${utf8Bytes(content)} bytes to ${path}`;
    }
    default:
      throw new Error(`unknown action: ${action}`);
  }
}

export function paths(args: Record<string, unknown>): ToolPaths {
  const path = args.path as string;
  const action = args.action as string;

  switch (action) {
    case "read":
      return { read: [path], record: [path] };
    case "write":
      return { write: [path], guard: [path] };
    default:
      return {};
  }
}
