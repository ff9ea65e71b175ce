/**
 * Whether a tool call runs without a question ("allow"), after one ("ask"), or never ("deny"):
 * the approvals file, the bridge's settings calls and Settings' policy rows read this one list.
 * Plain data and zod: the renderer bundles it.
 */
import { z } from "zod";

export const APPROVAL_RULES = ["ask", "allow", "deny"] as const;

export const ApprovalRuleSchema = z.enum(APPROVAL_RULES);

export type ApprovalRule = z.infer<typeof ApprovalRuleSchema>;
