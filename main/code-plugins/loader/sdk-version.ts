/**
 * SDK compatibility (seed 000 "SDK version compatibility"): a plugin written against SDK x.y.z
 * loads on a host whose SDK matches the tilde range ~x.y.z, i.e. >= x.y.z and < x.(y+1).0.
 * A plugin without `sdk:` is not checked (like Aura's unvendored sample plugins).
 */
import { version as hostSdkVersion } from "../../../plugins/sdk/index.ts";

export { hostSdkVersion };

interface SemVer {
  major: number;
  minor: number;
  patch: number;
}

/** "x.y.z" (an optional leading "v" is tolerated); prerelease/build tags are not versions we ship. */
export const SEMVER_PATTERN = /^v?(\d+)\.(\d+)\.(\d+)$/;

export function parseSemVer(text: string): SemVer | undefined {
  const m = SEMVER_PATTERN.exec(text.trim());
  return m ? { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) } : undefined;
}

/** Whether `host` satisfies ~`plugin`. */
export function satisfiesTilde(plugin: string, host: string): boolean {
  const p = parseSemVer(plugin);
  const h = parseSemVer(host);
  if (!p || !h) return false;
  return h.major === p.major && h.minor === p.minor && h.patch >= p.patch;
}

export interface SdkCompatibility {
  status: "compatible" | "incompatible" | "unchecked";
  /** For `plugins show`, e.g. "0.1.0 (compatible)" or "plugin requires SDK ~0.2.0, host has 0.1.0". */
  message?: string;
}

/** The compatibility of a manifest's `sdk:` with the host SDK (for `plugins show` and loading). */
export function sdkCompatibility(
  manifest: { sdk?: string },
  host: string = hostSdkVersion,
): SdkCompatibility {
  if (manifest.sdk === undefined) return { status: "unchecked" };
  const plugin = manifest.sdk.replace(/^v/, "");
  if (satisfiesTilde(plugin, host))
    return { status: "compatible", message: `${plugin} (compatible)` };
  return { status: "incompatible", message: `plugin requires SDK ~${plugin}, host has ${host}` };
}

/**
 * The load error for an incompatible plugin, or undefined. Starts with the seed's wording
 * (`plugin "x": plugin requires SDK ~0.2.0, host has 0.1.0`) and adds which side to update.
 */
export function sdkLoadError(
  name: string,
  manifest: { sdk?: string },
  host: string = hostSdkVersion,
): string | undefined {
  const c = sdkCompatibility(manifest, host);
  if (c.status !== "incompatible") return undefined;
  const p = parseSemVer(manifest.sdk ?? "");
  const h = parseSemVer(host);
  const hostOlder =
    p &&
    h &&
    (p.major > h.major ||
      (p.major === h.major && p.minor > h.minor) ||
      (p.major === h.major && p.minor === h.minor && p.patch > h.patch));
  const advice = hostOlder
    ? "update Islet, or install a plugin version written for this SDK"
    : `update the plugin (islet plugins update ${name}) to SDK ${host}`;
  return `plugin "${name}": ${c.message} (${advice})`;
}
