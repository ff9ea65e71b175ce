/**
 * Where a plugin's `exec` output goes while the program runs: to the card of the plugin's tool
 * call that is running, as `tool_output` (the engine coalesces and caps it as it does Bash's).
 * Nothing tells which call of a plugin started an exec — no async context crosses the sandbox —
 * so output is routed only while exactly one of its tool calls runs; with none (a hook) or
 * several (parallel calls) it comes with the result only, never on another call's card.
 */
export type OutputSink = (text: string) => void;

export class ExecOutputRoute {
  /** One entry per running tool call (null: a call nobody watches, e.g. `islet tools`). */
  readonly #running: { sink: OutputSink | null }[] = [];

  /** A tool call of the plugin starts; the returned function ends it. */
  enter(sink: OutputSink | undefined): () => void {
    const entry = { sink: sink ?? null };
    this.#running.push(entry);
    return () => {
      const at = this.#running.indexOf(entry);
      if (at >= 0) this.#running.splice(at, 1);
    };
  }

  /** Where an exec starting now streams to, if it can be told. */
  sink(): OutputSink | undefined {
    return this.#running.length === 1 ? (this.#running[0].sink ?? undefined) : undefined;
  }
}
