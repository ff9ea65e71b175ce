import type { Remedy } from "../core/remedy.ts";

/** A model file or download problem, as one line: the file or model, what is wrong, what to do. */
export class ModelFileError extends Error {
  /** What the app offers instead of the line's advice (e.g. a Download button). */
  readonly remedy: Remedy | undefined;
  constructor(message: string, remedy?: Remedy) {
    super(message);
    this.name = "ModelFileError";
    this.remedy = remedy;
  }
}
