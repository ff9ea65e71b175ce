/** A server's whole tool list, page by page, as the engine keeps it. */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { JsonSchema } from "../providers/types.ts";

export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  /** The server says the tool changes nothing (`readOnlyHint`). */
  readOnly: boolean;
  /** Its structured results' schema, when it declares one. */
  outputSchema?: JsonSchema;
}

export async function listAllTools(client: Client): Promise<McpToolInfo[]> {
  const out: McpToolInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    for (const t of page.tools)
      out.push({
        name: t.name,
        description: t.description ?? t.title ?? "",
        inputSchema: t.inputSchema as JsonSchema,
        readOnly: t.annotations?.readOnlyHint === true,
        ...(t.outputSchema ? { outputSchema: t.outputSchema as JsonSchema } : {}),
      });
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}
