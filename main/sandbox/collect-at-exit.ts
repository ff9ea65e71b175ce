/**
 * isolated-vm's objects in the host's heap (References, ExternalCopies, Callbacks) are freed by
 * V8 weak callbacks that need isolated-vm's per-thread environment. isolated-vm releases that
 * environment in a Node cleanup hook. When the process ends while V8 is in the middle of an
 * incremental marking, tearing the heap down finishes that collection after the hook, and the
 * first dead isolated-vm object aborts the process (`environment.h: Assertion 'environment !=
 * nullptr' failed`) — after all its work is done, with exit code 134 and a core file.
 *
 * One full collection at 'exit', before the cleanup hooks, frees every dead object while
 * isolated-vm can still do it and leaves no marking for the teardown to finish. `gc` is exposed
 * only for that moment: an isolate made while the flag is on would get a `gc` global, and no
 * plugin isolate is made once the process is exiting.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let armed = false;

/** Arms the collection once per process; loading isolated-vm calls it. */
export function collectAtExit(): void {
  if (armed) return;
  armed = true;
  process.once("exit", () => {
    setFlagsFromString("--expose-gc");
    try {
      (runInNewContext("gc") as () => void)();
    } finally {
      setFlagsFromString("--no-expose-gc");
    }
  });
}
