/** The built-in tools, in the order they are offered to the model. */
import { bashTool } from "./builtin/bash.ts";
import { doneTool } from "./builtin/done.ts";
import { globTool } from "./builtin/glob.ts";
import { grepTool } from "./builtin/grep.ts";
import { lsTool } from "./builtin/ls.ts";
import { patchTool } from "./builtin/patch.ts";
import { readTool } from "./builtin/read.ts";
import { todoWriteTool } from "./builtin/todo.ts";
import { writeTool } from "./builtin/write.ts";
import type { Tool } from "./types.ts";

export function builtinTools(): Tool[] {
  return [
    readTool,
    writeTool,
    patchTool,
    bashTool,
    globTool,
    grepTool,
    lsTool,
    todoWriteTool,
    doneTool,
  ];
}
