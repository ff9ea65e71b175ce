/**
 * What a plugin asks for in plugin.yaml `permissions:` (SPEC §6). Every entry carries a
 * human-readable `reason`: the user reads it when consenting to an install or an update that asks
 * for more. The manifest loader validates with `pluginPermissionsSchema`; the host capabilities
 * enforce the granted set at run time.
 */
import { z } from "zod";

const reason = z
  .string()
  .trim()
  .min(1, "give a reason: the user reads it when consenting to this permission");

// A host name ("api.example.com"), a wildcard subdomain ("*.example.com"), any host ("*"), an
// IPv4/IPv6 literal, each with an optional port. No scheme or path: permissions are per host.
const HOST_PATTERN = /^(\*|(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(:\d{1,5})?$/i;

export const networkPermissionSchema = z.strictObject({
  host: z
    .string()
    .trim()
    .regex(
      HOST_PATTERN,
      'network host must look like "api.example.com", "*.example.com" or "*" (no scheme or path)',
    ),
  reason,
});

export const pathPermissionSchema = z.strictObject({
  /** Absolute, `~/…` (home), or relative to the workspace. A folder grants everything below it. */
  path: z.string().trim().min(1, "path must not be empty"),
  reason,
  /** Read-only unless true. */
  write: z.boolean().optional(),
});

export const execPermissionSchema = z.strictObject({ reason });

/** WebAssembly in the sandbox (off otherwise); its memory counts against the plugin's limit. */
export const wasmPermissionSchema = z.strictObject({ reason });

export const envPermissionSchema = z.strictObject({
  name: z.string().trim().min(1, "env name must not be empty"),
  reason,
});

/**
 * Rewriting the arguments of a tool that asks (Bash, Write, plugin and MCP tools) in
 * `beforeToolExecution`. Granted, the rewritten call follows the tool's usual approval; without
 * it a person confirms every such call.
 */
export const rewritePermissionSchema = z.strictObject({
  /** A tool name, or a pattern where `*` matches any run of characters (`mcp__*`). */
  tool: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_*.:-]+$/, 'rewrite tool must be a tool name or a pattern like "mcp__*"'),
  reason,
});

export const pluginPermissionsSchema = z.strictObject({
  network: z.array(networkPermissionSchema).optional(),
  paths: z.array(pathPermissionSchema).optional(),
  exec: execPermissionSchema.optional(),
  wasm: wasmPermissionSchema.optional(),
  env: z.array(envPermissionSchema).optional(),
  rewrite: z.array(rewritePermissionSchema).optional(),
});

export type NetworkPermission = z.infer<typeof networkPermissionSchema>;
export type PathPermission = z.infer<typeof pathPermissionSchema>;
export type ExecPermission = z.infer<typeof execPermissionSchema>;
export type WasmPermission = z.infer<typeof wasmPermissionSchema>;
export type EnvPermission = z.infer<typeof envPermissionSchema>;
export type RewritePermission = z.infer<typeof rewritePermissionSchema>;
export type PluginPermissions = z.infer<typeof pluginPermissionsSchema>;

/** No permissions beyond the defaults (workspace and own folder, no network, no exec, no wasm). */
export const NO_PERMISSIONS: PluginPermissions = Object.freeze({});
