/** How often the runtime says it is alive (its own module: the runtime sends it before zod loads). */
export const HEARTBEAT_MS = 500;
