/**
 * What each remembered "always" of an MCP tool was given to (ToolBinding), per workspace, in
 * `<globalHome>/approval-bindings.json` beside approvals.json (which keeps its plain
 * `{"<workdir>": {"<tool>": rule}}` shape for Settings and older versions).
 */
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { writeAtomically } from "../config/atomic-write.ts";
import type { ToolBinding } from "./types.ts";

const BindingSchema = z.object({
  server: z.string(),
  identity: z.string(),
  definition: z.string(),
  description: z.string(),
});
const storeSchema = z.record(z.string(), z.record(z.string(), BindingSchema));
type Store = z.infer<typeof storeSchema>;

export function approvalBindingsFile(globalHome: string): string {
  return path.join(globalHome, "approval-bindings.json");
}

export class ApprovalBindings {
  readonly file: string;
  private readonly workdir: string;
  private writes: Promise<void> = Promise.resolve();

  constructor(globalHome: string, workdir: string) {
    this.file = approvalBindingsFile(globalHome);
    this.workdir = workdir;
  }

  async get(toolName: string): Promise<ToolBinding | undefined> {
    return (await this.load())[this.workdir]?.[toolName];
  }

  /** Records what an "always" was given to; `undefined` forgets it. */
  set(toolName: string, binding: ToolBinding | undefined): Promise<void> {
    const write = this.writes.then(async () => {
      const store = await this.load();
      const bound = { ...store[this.workdir] };
      if (!binding && !(toolName in bound)) return;
      if (binding) bound[toolName] = { ...binding };
      else delete bound[toolName];
      const next: Store = { ...store, [this.workdir]: bound };
      if (Object.keys(bound).length === 0) delete next[this.workdir];
      await writeAtomically(this.file, `${JSON.stringify(next, null, 2)}\n`);
    });
    this.writes = write.catch(() => undefined);
    return write;
  }

  /**
   * An unreadable file binds nothing: every "always" of an MCP tool is taken as given to the
   * server and definition seen at its next call, as with an approvals file from before bindings.
   */
  private async load(): Promise<Store> {
    try {
      const parsed = storeSchema.safeParse(JSON.parse(await fs.readFile(this.file, "utf8")));
      return parsed.success ? parsed.data : {};
    } catch {
      return {};
    }
  }
}
