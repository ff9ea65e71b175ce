/**
 * Test helpers shared by the sandbox suites: every suite runs once per backend in
 * `SANDBOX_BACKENDS_UNDER_TEST` (add QuickJS there and the same tests cover it).
 */
import assert from "node:assert/strict";
import { describe } from "node:test";
import { createSandbox, SANDBOX_BACKENDS } from "./backends.ts";
import {
  DEFAULT_LIMITS,
  SandboxFault,
  type FaultKind,
  type HostCapabilities,
  type LogLevel,
  type PluginSandbox,
  type SandboxBackendName,
  type SandboxLimits,
  type SandboxModule,
} from "./types.ts";

export interface BackendUnderTest {
  name: SandboxBackendName;
  create(): PluginSandbox;
}

export const SANDBOX_BACKENDS_UNDER_TEST: BackendUnderTest[] = SANDBOX_BACKENDS.map((name) => ({
  name,
  create: () => createSandbox(name),
}));

/** Runs `suite` inside a describe block per backend. */
export function forEachBackend(suite: (backend: BackendUnderTest) => void): void {
  for (const backend of SANDBOX_BACKENDS_UNDER_TEST) {
    describe(`[${backend.name}]`, () => suite(backend));
  }
}

export interface LogLine {
  level: LogLevel;
  text: string;
}

export type RecordingHost = HostCapabilities & { logs: LogLine[] };

/** Host capabilities that record the log and answer calls with `call` (default: reject). */
export function recordingHost(overrides: Partial<HostCapabilities> = {}): RecordingHost {
  const logs: LogLine[] = [];
  return {
    logs,
    env: {},
    exec: false,
    call: (name) => Promise.reject(new Error(`no host service ${name} in this test`)),
    ...overrides,
    log: (level, text) => {
      logs.push({ level, text });
      overrides.log?.(level, text);
    },
  };
}

/** Small budgets so hostile tests finish quickly. */
export const TEST_LIMITS: SandboxLimits = {
  ...DEFAULT_LIMITS,
  memoryMb: 32,
  callTimeoutMs: 300,
};

export const TEST_FILENAME = "/plugins/test-plugin/index.ts";

export function loadPlugin(
  backend: BackendUnderTest,
  code: string,
  opts: {
    host?: HostCapabilities;
    limits?: Partial<SandboxLimits>;
    filename?: string;
    allowWasm?: boolean;
  } = {},
): Promise<SandboxModule> {
  return backend.create().load({
    code,
    filename: opts.filename ?? TEST_FILENAME,
    limits: { ...TEST_LIMITS, ...opts.limits },
    host: opts.host ?? recordingHost(),
    allowWasm: opts.allowWasm,
  });
}

/** Awaits a rejection with SandboxFault of `kind` (and a message matching `message`). */
export async function expectFault(
  promise: Promise<unknown>,
  kind: FaultKind,
  message?: RegExp,
): Promise<SandboxFault> {
  let fault: unknown;
  try {
    const value = await promise;
    assert.fail(`expected a ${kind} fault, got ${JSON.stringify(value)}`);
  } catch (error) {
    fault = error;
  }
  assert.ok(fault instanceof SandboxFault, `expected a SandboxFault, got ${String(fault)}`);
  assert.equal(fault.kind, kind, `fault ${fault.kind}: ${fault.message}`);
  if (message) assert.match(fault.message, message);
  return fault;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
