/**
 * What the engine tells its host while it works. The schemas live in main/core/events.ts
 * (the bridge contract and the renderer import them without pulling the engine in).
 */
export {
  AgentEvent,
  PUBLIC_EVENT_TYPES,
  type AgentEventType,
  type EventSink,
} from "../core/events.ts";
