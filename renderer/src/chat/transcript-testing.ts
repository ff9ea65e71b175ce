/** Engine events and actions for the transcript reducer's tests, and what a transcript shows. */
import {
  EMPTY_TRANSCRIPT,
  reduceTranscript,
  type ChatEvent,
  type Transcript,
  type TranscriptAction,
} from "./transcript.ts";

export const run = (...actions: TranscriptAction[]): Transcript =>
  actions.reduce(reduceTranscript, EMPTY_TRANSCRIPT);
export const events = (...list: ChatEvent[]): TranscriptAction => ({
  type: "events",
  events: list,
});
export const stats = {
  startTime: "",
  duration: 1,
  interactions: 1,
  turns: 1,
  iterations: 1,
  tools: { calls: 0, errors: 0 },
  parseRetries: 0,
  compactions: 0,
  tokens: { in: 1, out: 1 },
  topTools: [],
};
/** What items a transcript shows, compactly. */
export const shape = (t: Transcript) =>
  t.turns.map((turn) => ({
    prompt: turn.prompt,
    status: turn.status,
    items: turn.items.map((it) => {
      const { id: _id, ...rest } = it;
      return rest;
    }),
  }));
