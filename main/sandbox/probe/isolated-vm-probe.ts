/**
 * The isolated-vm probe, run in a disposable process with the app's own V8 (an Electron utility
 * process in the app; plain Node in tests). Electron's memory cage aborts the whole process when
 * an ArrayBuffer backing store lives outside it (ENGINEERING.md §0), so this does exactly what a
 * plugin might: typed arrays > 64 bytes inside isolates, an ExternalCopy of an ArrayBuffer, and
 * 200 isolates created and disposed. A crash here costs the probe process, never the app.
 *
 * Reports one JSON line: {"ok":true} or {"ok":false,"reason":"…"} — to the parent port in an
 * Electron utility process, else to stdout.
 */
import { collectAtExit } from "../collect-at-exit.ts";

type Report = { ok: true; isolates: number } | { ok: false; reason: string };

interface ParentPortLike {
  postMessage(message: unknown): void;
}

function report(r: Report): void {
  const port = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
  if (port) port.postMessage(r);
  else process.stdout.write(`${JSON.stringify(r)}\n`);
}

async function probe(): Promise<Report> {
  const ivm = (await import("isolated-vm")).default;
  collectAtExit();
  const first = new ivm.Isolate({ memoryLimit: 16 });
  const ctx = first.createContextSync();
  const sum = ctx.evalSync(
    `const a = new Uint8Array(4096); for (let i = 0; i < a.length; i++) a[i] = i & 255;
     const t = Uint16Array.from("x".repeat(1000), (c) => c.charCodeAt(0));
     const f = new Float64Array(1024).fill(1.5);
     a.reduce((s, v) => s + v, 0) + t.length + f[1023]`,
  ) as number;
  if (sum !== 523241.5) return { ok: false, reason: `typed arrays inside an isolate gave ${sum}` };
  const buffer = new ArrayBuffer(8192);
  new Uint8Array(buffer).fill(7);
  const copy = new ivm.ExternalCopy(buffer);
  await ctx.global.set("shared", copy.copyInto({ release: true }));
  const seen = ctx.evalSync("new Uint8Array(shared)[8191]") as number;
  if (seen !== 7) return { ok: false, reason: `ExternalCopy of an ArrayBuffer read back ${seen}` };
  first.dispose();
  for (let i = 0; i < 200; i++) {
    const iso = new ivm.Isolate({ memoryLimit: 8 });
    iso
      .createContextSync()
      .evalSync("new Uint8Array(1024)[0] = 1; new ArrayBuffer(2048).byteLength");
    iso.dispose();
  }
  return { ok: true, isolates: 201 };
}

probe().then(report, (err: unknown) =>
  report({ ok: false, reason: err instanceof Error ? err.message : String(err) }),
);
