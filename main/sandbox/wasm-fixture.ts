/**
 * A real WebAssembly module for the wasm tests, assembled by hand (no toolchain needed): one
 * memory of `minPages` (and `maxPages` when given), exported as "memory", and two functions,
 * `grow(pages)` (memory.grow: the old size in pages, or -1 when refused) and `fill(bytes)` (writes
 * that many bytes from address 1, so the pages are really touched).
 */

const uleb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return out;
};

const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const name = (s: string): number[] => [...uleb(s.length), ...[...s].map((c) => c.charCodeAt(0))];

export function wasmModuleBytes(minPages: number, maxPages?: number): number[] {
  const limits =
    maxPages === undefined ? [0, ...uleb(minPages)] : [1, ...uleb(minPages), ...uleb(maxPages)];
  const growBody = [0, 0x20, 0, 0x40, 0, 0x0b];
  const fillBody = [0, 0x41, 1, 0x41, 1, 0x20, 0, 0xfc, 0x0b, 0, 0x20, 0, 0x0b];
  return [
    ...[0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0],
    ...section(1, [1, 0x60, 1, 0x7f, 1, 0x7f]),
    ...section(3, [2, 0, 0]),
    ...section(5, [1, ...limits]),
    ...section(7, [3, ...name("grow"), 0, 0, ...name("fill"), 0, 1, ...name("memory"), 2, 0]),
    ...section(10, [
      2,
      ...uleb(growBody.length),
      ...growBody,
      ...uleb(fillBody.length),
      ...fillBody,
    ]),
  ];
}

/** The module as a JavaScript expression a plugin's code can embed. */
export function wasmModuleSource(minPages: number, maxPages?: number): string {
  return `new Uint8Array(${JSON.stringify(wasmModuleBytes(minPages, maxPages))})`;
}
