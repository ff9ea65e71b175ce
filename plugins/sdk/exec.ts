/**
 * `@islet/sdk/exec`: run a program (unsafe mode only; importing it otherwise fails at load).
 * `command` runs without a shell; pass ["bash", "-c", "…"] for one. Run from a tool's
 * `execute`, its output also shows live in the tool's card while it runs.
 */
import type { ExecOptions, ExecResult } from "./index.ts";

export declare function exec(command: string[], options?: ExecOptions): Promise<ExecResult>;
