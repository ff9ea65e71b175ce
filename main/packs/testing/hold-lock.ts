/**
 * Test support, run as a process of its own: takes the packs lock of the global home given as
 * the first argument (as an `islet plugins add` in progress would), says "locked" on stdout, and
 * holds it until stdin ends.
 */
import { acquirePackLock } from "../lock.ts";

const lock = await acquirePackLock(process.argv[2], "installing a test pack", 60_000);
process.stdout.write("locked\n");
process.stdin.resume();
process.stdin.on("end", () => {
  void lock.release().then(() => process.exit(0));
});
