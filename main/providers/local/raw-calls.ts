/**
 * The exact text of recent grammar-made tool calls, by call id. Sent back with the history so the
 * chat template renders the same tokens the model wrote and the next turn reuses the cache (the
 * arguments alone would render with other spacing and re-evaluate from that call on).
 */
const MAX = 1000;

export class RawCalls {
  private readonly map = new Map<string, unknown>();

  set(callId: string, raw: unknown): void {
    this.map.set(callId, raw);
    if (this.map.size > MAX) this.map.delete(this.map.keys().next().value as string);
  }

  get(callId: string): unknown {
    return this.map.get(callId);
  }
}
