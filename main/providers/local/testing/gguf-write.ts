/**
 * A minimal GGUF v3 writer (https://github.com/ggml-org/ggml/blob/master/docs/gguf.md): metadata
 * key/values and float32 tensors. Enough to write test models; CI has no Python `gguf` package.
 */
import { open } from "node:fs/promises";

/** A metadata value with its GGUF type spelled out (GGUF has no untyped numbers). */
export type GgufValue =
  | { u32: number }
  | { i32: number }
  | { f32: number }
  | { bool: boolean }
  | { str: string }
  | { strs: string[] }
  | { f32s: number[] }
  | { i32s: number[] };

export interface GgufTensor {
  name: string;
  /** ggml order: dims[0] varies fastest (a row of a matrix is dims[0] values). */
  dims: number[];
  /** Omitted: the tensor's bytes are a hole in a sparse file (zeros, no disk used). */
  data?: Float32Array;
}

const ALIGNMENT = 32;
const T_U32 = 4;
const T_I32 = 5;
const T_F32 = 6;
const T_BOOL = 7;
const T_STRING = 8;
const T_ARRAY = 9;
const GGML_F32 = 0;

/** Appends little-endian values to a growing list of chunks. */
class Bytes {
  readonly chunks: Buffer[] = [];
  length = 0;
  push(b: Buffer): void {
    this.chunks.push(b);
    this.length += b.length;
  }
  u32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.push(b);
  }
  i32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.push(b);
  }
  u64(v: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.push(b);
  }
  f32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.push(b);
  }
  bool(v: boolean): void {
    this.push(Buffer.from([v ? 1 : 0]));
  }
  str(s: string): void {
    const b = Buffer.from(s, "utf8");
    this.u64(b.length);
    this.push(b);
  }
  pad(to: number): void {
    const n = (to - (this.length % to)) % to;
    if (n) this.push(Buffer.alloc(n));
  }
}

function writeValue(out: Bytes, v: GgufValue): void {
  if ("u32" in v) return (out.u32(T_U32), out.u32(v.u32));
  if ("i32" in v) return (out.u32(T_I32), out.i32(v.i32));
  if ("f32" in v) return (out.u32(T_F32), out.f32(v.f32));
  if ("bool" in v) return (out.u32(T_BOOL), out.bool(v.bool));
  if ("str" in v) return (out.u32(T_STRING), out.str(v.str));
  out.u32(T_ARRAY);
  if ("strs" in v) {
    out.u32(T_STRING);
    out.u64(v.strs.length);
    for (const s of v.strs) out.str(s);
  } else if ("f32s" in v) {
    out.u32(T_F32);
    out.u64(v.f32s.length);
    for (const f of v.f32s) out.f32(f);
  } else {
    out.u32(T_I32);
    out.u64(v.i32s.length);
    for (const i of v.i32s) out.i32(i);
  }
}

function aligned(n: number): number {
  return Math.ceil(n / ALIGNMENT) * ALIGNMENT;
}

/** Writes a GGUF file; returns its size in bytes. */
export async function writeGguf(
  file: string,
  metadata: Record<string, GgufValue>,
  tensors: GgufTensor[],
): Promise<number> {
  const head = new Bytes();
  head.push(Buffer.from("GGUF", "latin1"));
  head.u32(3);
  head.u64(tensors.length);
  head.u64(Object.keys(metadata).length);
  for (const [key, value] of Object.entries(metadata)) {
    head.str(key);
    writeValue(head, value);
  }
  let offset = 0;
  for (const t of tensors) {
    const count = t.dims.reduce((a, b) => a * b, 1);
    if (t.data && count !== t.data.length) {
      throw new Error(`${t.name}: ${t.data.length} values for ${t.dims.join("×")}`);
    }
    head.str(t.name);
    head.u32(t.dims.length);
    for (const d of t.dims) head.u64(d);
    head.u32(GGML_F32);
    head.u64(offset);
    offset = aligned(offset + count * 4);
  }
  head.pad(ALIGNMENT);
  const fh = await open(file, "w");
  try {
    let size = 0;
    for (const chunk of head.chunks) size += (await fh.write(chunk)).bytesWritten;
    for (const t of tensors) {
      const length = t.dims.reduce((a, b) => a * b, 1) * 4;
      if (t.data) {
        await fh.write(
          Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength),
          0,
          length,
          size,
        );
      }
      size += aligned(length);
    }
    await fh.truncate(size);
    return size;
  } finally {
    await fh.close();
  }
}
