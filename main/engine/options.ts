/** What a host gives the engine it creates (main/engine/bootstrap.ts builds one from the homes). */
import type { AgentConfig } from "../agents/definition.ts";
import type { Homes } from "../config/homes.ts";
import type { QuestionPort } from "../host/questions.ts";
import type { WorkspaceTrust } from "../trust/workspace-trust.ts";
import type { ResolvedModel } from "../turn/state.ts";
import type { ThinkMode } from "../../plugins/sdk/index.ts";
import type { ModelSource } from "./model-source.ts";
import type { Problem } from "../host/problem.ts";

export interface EngineOptions {
  homes: Homes;
  /** Process environment merged with the env file (keys for providers). */
  env: Record<string, string | undefined>;
  resolveModel(agent: AgentConfig): Promise<ResolvedModel>;
  /** Providers, keys and local servers as they stand now (the UI hosts' model picker, Settings). */
  models?: ModelSource;
  /**
   * Who answers the engine's questions (tool approval unless a conversation has its own port,
   * plugin permissions, workspace trust). Missing: nobody, every question gets its safe default.
   */
  questions?: QuestionPort;
  maxSteps?: number;
  vars?: Record<string, string>;
  thinkMode?: ThinkMode;
  /** One-line reports about broken configuration (they never stop the engine). */
  warn(problem: Problem): void;
  /** Whether the workspace's `.islet/` may widen anything; missing: not trusted. */
  trust?: WorkspaceTrust;
  /** Env files holding keys: no plugin may read them. */
  secretFiles?: string[];
}
