/** A model file or download problem, as one line: the file or model, what is wrong, what to do. */
export class ModelFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ModelFileError";
  }
}
