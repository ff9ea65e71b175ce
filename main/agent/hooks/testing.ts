/** Test support: hook handlers from plain functions (what the plugin runtime supplies later). */
import type {
  HookContexts,
  HookHandler,
  HookInvocation,
  HookRegistry,
  HookResults,
  HookTiming,
} from "./types.ts";

type Fn<T extends HookTiming> = (
  ctx: HookContexts[T],
) => HookResults[T] | undefined | HookInvocation<T> | Promise<HookResults[T] | undefined>;

export function handler<T extends HookTiming>(
  source: string,
  timing: T,
  fn: Fn<T>,
): HookHandler<T> {
  return {
    source,
    timing,
    async invoke(ctx) {
      const r = await fn(ctx);
      if (r && typeof r === "object" && !Array.isArray(r) && "status" in r)
        return r as HookInvocation<T>;
      return { status: "ok", result: r as HookResults[T] | undefined };
    },
  };
}

/** A registry holding the given handlers (run in the order given). */
export function registryOf(...handlers: HookHandler[]): HookRegistry {
  return {
    handlers<T extends HookTiming>(timing: T) {
      return handlers.filter((h): h is HookHandler<T> => h.timing === timing);
    },
  };
}
