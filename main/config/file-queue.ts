/**
 * Read-modify-write of one config file, one at a time within this process: two quick changes from
 * Settings (the sandbox runtime, then unsafe mode) must not read the same old file and lose one.
 */
const queues = new Map<string, Promise<unknown>>();

export function queuedEdit<T>(file: string, edit: () => Promise<T>): Promise<T> {
  const next = (queues.get(file) ?? Promise.resolve()).then(edit, edit);
  const settled = next.catch(() => undefined);
  queues.set(file, settled);
  void settled.then(() => {
    if (queues.get(file) === settled) queues.delete(file);
  });
  return next;
}
