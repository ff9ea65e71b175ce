/**
 * `@islet/sdk/exec`: run a program (unsafe mode only; importing it otherwise fails at load).
 * `command` runs without a shell; pass ["bash", "-c", "…"] for one.
 */
import type { ExecOptions, ExecResult } from "./index.ts";

export declare function exec(command: string[], options?: ExecOptions): Promise<ExecResult>;
