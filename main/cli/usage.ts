/** The error type for bad usage: exit code 2, and the message points to the command's --help. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
