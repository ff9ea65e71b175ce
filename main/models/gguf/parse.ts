/**
 * Reads a GGUF header (version 2 or 3, little-endian): the metadata key/values and the tensor
 * table, without the tensor data. Big arrays (the tokenizer's vocabulary) are skipped, only
 * their length kept. Problems are GgufFormatError with a kind, so callers can say what to do.
 */
import { open } from "node:fs/promises";
import { ByteReader, EndOfFile } from "./reader.ts";

export type GgufProblem = "not-gguf" | "truncated" | "unsupported" | "corrupt";

export class GgufFormatError extends Error {
  readonly kind: GgufProblem;
  constructor(kind: GgufProblem, message: string) {
    super(message);
    this.kind = kind;
    this.name = "GgufFormatError";
  }
}

export type GgufScalar = number | bigint | boolean | string;
/**
 * Numeric arrays up to MAX_KEPT_ARRAY elements are kept; other arrays only say how long, and a
 * string array (the vocabulary) which of the MARKER_TOKENS it holds.
 */
export type GgufValue = GgufScalar | GgufScalar[] | { arrayLength: number; markers?: string[] };

/** Vocabulary entries worth knowing without keeping the vocabulary: the thinking tag. */
export const MARKER_TOKENS: readonly string[] = ["<think>"];
const MARKER_LENGTHS = new Set(MARKER_TOKENS.map((t) => Buffer.byteLength(t)));

export interface GgufTensor {
  name: string;
  dims: bigint[];
  type: number;
  offset: bigint;
}

export interface GgufHeader {
  version: number;
  metadata: Map<string, GgufValue>;
  tensors: GgufTensor[];
  /** Where tensor data begins (after the header, aligned). */
  dataOffset: bigint;
  fileSize: number;
}

const MAGIC = 0x46554747; // "GGUF" read little-endian
const MAX_KV = 1_000_000;
const MAX_TENSORS = 10_000_000;
const MAX_DIMS = 4;
const MAX_KEPT_ARRAY = 4096;
const MAX_STRING = 256 * 1024 * 1024;
/** Element sizes of fixed-size value types (u8, i8, u16, i16, u32, i32, f32, bool, -, -, u64, i64, f64). */
const FIXED: Record<number, number> = {
  0: 1,
  1: 1,
  2: 2,
  3: 2,
  4: 4,
  5: 4,
  6: 4,
  7: 1,
  10: 8,
  11: 8,
  12: 8,
};
const STRING = 8;
const ARRAY = 9;

async function readString(r: ByteReader): Promise<string> {
  const n = await r.u64();
  if (n > BigInt(MAX_STRING)) throw new GgufFormatError("corrupt", `a string of ${n} bytes`);
  return (await r.bytes(Number(n))).toString("utf8");
}

async function readScalar(r: ByteReader, type: number): Promise<GgufScalar> {
  switch (type) {
    case 0:
      return r.u8();
    case 1:
      return ((await r.u8()) << 24) >> 24;
    case 2:
      return (await r.u8()) | ((await r.u8()) << 8);
    case 3:
      return (((await r.u8()) | ((await r.u8()) << 8)) << 16) >> 16;
    case 4:
      return r.u32();
    case 5:
      return r.i32();
    case 6:
      return r.f32();
    case 7:
      return (await r.u8()) !== 0;
    case STRING:
      return readString(r);
    case 10:
      return r.u64();
    case 11:
      return r.i64();
    case 12:
      return r.f64();
    default:
      throw new GgufFormatError("corrupt", `unknown metadata value type ${type}`);
  }
}

async function readValue(r: ByteReader, type: number): Promise<GgufValue> {
  if (type !== ARRAY) return readScalar(r, type);
  const itemType = await r.u32();
  const count = await r.u64();
  if (count > BigInt(r.size)) throw new GgufFormatError("corrupt", `an array of ${count} items`);
  const n = Number(count);
  const fixed = FIXED[itemType];
  if (fixed !== undefined && n <= MAX_KEPT_ARRAY) {
    const items: GgufScalar[] = [];
    for (let i = 0; i < n; i++) items.push(await readScalar(r, itemType));
    return items;
  }
  if (fixed !== undefined) {
    await r.skip(n * fixed);
    return { arrayLength: n };
  }
  if (itemType !== STRING)
    throw new GgufFormatError("corrupt", `an array of value type ${itemType}`);
  const markers: string[] = [];
  for (let i = 0; i < n; i++) {
    const length = Number(await r.u64());
    if (!MARKER_LENGTHS.has(length)) {
      await r.skip(length);
      continue;
    }
    const s = (await r.bytes(length)).toString("utf8");
    if (MARKER_TOKENS.includes(s) && !markers.includes(s)) markers.push(s);
  }
  return markers.length > 0 ? { arrayLength: n, markers } : { arrayLength: n };
}

async function readHeader(r: ByteReader): Promise<GgufHeader> {
  if (r.size < 4 || (await r.u32()) !== MAGIC) {
    throw new GgufFormatError("not-gguf", "not a GGUF file (it does not start with GGUF)");
  }
  const version = await r.u32();
  if (version === 1) {
    throw new GgufFormatError("unsupported", "GGUF version 1 is too old for llama.cpp");
  }
  if (version !== 2 && version !== 3) {
    const bigEndian = version > 0xffff;
    throw new GgufFormatError(
      "unsupported",
      bigEndian ? "a big-endian GGUF file" : `GGUF version ${version} is newer than this llama.cpp`,
    );
  }
  const tensorCount = await r.u64();
  const kvCount = await r.u64();
  if (kvCount > BigInt(MAX_KV) || tensorCount > BigInt(MAX_TENSORS)) {
    throw new GgufFormatError("corrupt", `${kvCount} metadata keys and ${tensorCount} tensors`);
  }
  const metadata = new Map<string, GgufValue>();
  for (let i = 0; i < Number(kvCount); i++) {
    const key = await readString(r);
    metadata.set(key, await readValue(r, await r.u32()));
  }
  const tensors: GgufTensor[] = [];
  for (let i = 0; i < Number(tensorCount); i++) {
    const name = await readString(r);
    const nDims = await r.u32();
    if (nDims > MAX_DIMS)
      throw new GgufFormatError("corrupt", `tensor ${name} has ${nDims} dimensions`);
    const dims: bigint[] = [];
    for (let d = 0; d < nDims; d++) dims.push(await r.u64());
    tensors.push({ name, dims, type: await r.u32(), offset: await r.u64() });
  }
  const alignment = metadata.get("general.alignment");
  const align = BigInt(typeof alignment === "number" && alignment > 0 ? alignment : 32);
  const end = BigInt(r.offset);
  const dataOffset = ((end + align - 1n) / align) * align;
  return { version, metadata, tensors, dataOffset, fileSize: r.size };
}

/** The header of a GGUF file; GgufFormatError when it is not one llama.cpp could read. */
export async function parseGgufHeader(file: string): Promise<GgufHeader> {
  const fh = await open(file, "r");
  try {
    const { size } = await fh.stat();
    return await readHeader(new ByteReader(fh, size));
  } catch (err) {
    if (err instanceof EndOfFile) {
      throw new GgufFormatError(
        "truncated",
        `the file ends inside its header (byte ${err.offset})`,
      );
    }
    throw err;
  } finally {
    await fh.close();
  }
}
