/**
 * gotify: a Gotify tool that sends a push notification through the user's Gotify server:
 * POST {GOTIFY_URL}/message?token={GOTIFY_TOKEN} with {title, message, priority}. Without both
 * variables the tool is not registered (available() is false). The token never appears in what
 * the tool returns, errors included.
 */
import type { Context, ToolSchema } from "@islet/sdk";

const DEFAULT_TITLE = "Islet";
const DEFAULT_PRIORITY = 5;

export function available(): boolean {
  return Boolean(process.env.GOTIFY_URL?.trim()) && Boolean(process.env.GOTIFY_TOKEN?.trim());
}

export function schema(): ToolSchema {
  return {
    name: "Gotify",
    description:
      "Send a push notification to the user's phone or desktop through their Gotify server. " +
      "Use it for things the user should see even when away from the chat: a long task " +
      "finished or failed, or you need their decision.",
    parameters: {
      type: "object",
      properties: {
        message: {
          type: "string",
          description: "The notification text (Markdown is shown as text)",
        },
        title: { type: "string", description: `Short title (default: ${DEFAULT_TITLE})` },
        priority: {
          type: "integer",
          description: `0-10: 0-3 quiet, 4-7 normal, 8-10 urgent (default: ${DEFAULT_PRIORITY})`,
        },
      },
      required: ["message"],
    },
  };
}

/** Gotify's error body is {"error", "errorCode", "errorDescription"}; fall back to the raw text. */
function describeFailure(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; errorDescription?: unknown };
    const parts = [parsed.error, parsed.errorDescription].filter((p) => typeof p === "string");
    if (parts.length > 0) return parts.join(": ");
  } catch {
    // not JSON
  }
  return body.trim().slice(0, 300) || "(empty response)";
}

export async function execute(ctx: Context, args: Record<string, unknown>): Promise<string> {
  const base = (process.env.GOTIFY_URL ?? "").trim().replace(/\/+$/, "");
  const token = (process.env.GOTIFY_TOKEN ?? "").trim();
  const redact = (text: string): string => {
    let out = text;
    for (const secret of [token, encodeURIComponent(token)])
      if (secret !== "") out = out.split(secret).join("***");
    return out;
  };

  const message = args.message as string;
  if (message.trim() === "") throw new Error("message must not be empty");
  const configTitle = ctx.pluginConfig.title;
  const title =
    typeof args.title === "string" && args.title.trim() !== ""
      ? args.title
      : typeof configTitle === "string" && configTitle !== ""
        ? configTitle
        : DEFAULT_TITLE;
  const configPriority = ctx.pluginConfig.priority;
  const priority =
    typeof args.priority === "number"
      ? args.priority
      : typeof configPriority === "number"
        ? configPriority
        : DEFAULT_PRIORITY;
  if (!Number.isInteger(priority) || priority < 0 || priority > 10)
    throw new Error(`priority must be a whole number from 0 to 10, got ${priority}`);

  let response: Response;
  try {
    response = await fetch(`${base}/message?token=${encodeURIComponent(token)}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ title, message, priority }),
    });
  } catch (err) {
    // No `cause`: the original error names the URL, token included; only the redacted text leaves.
    // eslint-disable-next-line preserve-caught-error
    throw new Error(
      `could not reach Gotify: ${redact(err instanceof Error ? err.message : String(err))}`,
    );
  }
  const body = await response.text();
  if (!response.ok)
    throw new Error(
      `Gotify refused the notification (HTTP ${response.status}): ${redact(describeFailure(body))}`,
    );
  let id: unknown;
  try {
    id = (JSON.parse(body) as { id?: unknown }).id;
  } catch {
    id = undefined;
  }
  return `Notification sent${typeof id === "number" ? ` (id ${id})` : ""}: "${title}" with priority ${priority}.`;
}
