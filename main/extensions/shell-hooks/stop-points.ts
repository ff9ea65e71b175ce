/**
 * Claude's `stop_hook_active` is about any Stop hook, a plugin's or the user's, so every registry
 * shares it: true when a hook blocked at the session's previous Stop point. One point is one
 * context object (every handler of a point gets the same one).
 */
export const STOP_ACTIVE = new Set<string>();
export const stopPoints = new Map<string, { ctx: object; blocked: boolean }>();

export function enterStopPoint(session: string, ctx: object): void {
  const last = stopPoints.get(session);
  if (last?.ctx === ctx) return;
  if (last?.blocked) STOP_ACTIVE.add(session);
  else STOP_ACTIVE.delete(session);
  stopPoints.set(session, { ctx, blocked: false });
}
