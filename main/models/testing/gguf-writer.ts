/**
 * Writes small GGUF files for tests: any metadata, tensors of any ggml type (data zeroed), so
 * header tests can build valid files and then break them (truncate, change a field).
 * Not a model llama.cpp can run: main/providers/local/testing/tiny-gguf.ts writes that one.
 */
import { writeFile } from "node:fs/promises";
import { tensorBytes } from "../gguf/ggml.ts";

export type MetaValue =
  | { u32: number }
  | { u64: bigint }
  | { f32: number }
  | { bool: boolean }
  | { str: string }
  | { u32s: number[] }
  | { strs: string[] };

export interface TestTensor {
  name: string;
  dims: number[];
  /** ggml type (0 = F32, 12 = Q4_K…). */
  type: number;
}

export interface GgufSpec {
  version?: number;
  metadata: Record<string, MetaValue>;
  tensors: TestTensor[];
}

class Out {
  parts: Buffer[] = [];
  length = 0;
  push(b: Buffer): void {
    this.parts.push(b);
    this.length += b.length;
  }
  u32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.push(b);
  }
  u64(v: bigint): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(v);
    this.push(b);
  }
  str(s: string): void {
    const b = Buffer.from(s, "utf8");
    this.u64(BigInt(b.length));
    this.push(b);
  }
}

function value(out: Out, v: MetaValue): void {
  if ("u32" in v) return (out.u32(4), out.u32(v.u32));
  if ("u64" in v) return (out.u32(10), out.u64(v.u64));
  if ("f32" in v) {
    out.u32(6);
    const b = Buffer.alloc(4);
    b.writeFloatLE(v.f32);
    return out.push(b);
  }
  if ("bool" in v) return (out.u32(7), out.push(Buffer.from([v.bool ? 1 : 0])));
  if ("str" in v) return (out.u32(8), out.str(v.str));
  if ("u32s" in v) {
    out.u32(9);
    out.u32(4);
    out.u64(BigInt(v.u32s.length));
    for (const x of v.u32s) out.u32(x);
    return;
  }
  out.u32(9);
  out.u32(8);
  out.u64(BigInt(v.strs.length));
  for (const s of v.strs) out.str(s);
}

/** The bytes of a GGUF file (alignment 32). */
export function ggufBytes(spec: GgufSpec): Buffer {
  const out = new Out();
  out.push(Buffer.from("GGUF"));
  out.u32(spec.version ?? 3);
  out.u64(BigInt(spec.tensors.length));
  const meta = Object.entries(spec.metadata);
  out.u64(BigInt(meta.length));
  for (const [k, v] of meta) {
    out.str(k);
    value(out, v);
  }
  let offset = 0n;
  const sizes: bigint[] = [];
  for (const t of spec.tensors) {
    out.str(t.name);
    out.u32(t.dims.length);
    for (const d of t.dims) out.u64(BigInt(d));
    out.u32(t.type);
    out.u64(offset);
    const bytes =
      tensorBytes(
        t.type,
        t.dims.reduce((a, b) => a * BigInt(b), 1n),
      ) ?? 0n;
    sizes.push(bytes);
    offset += ((bytes + 31n) / 32n) * 32n;
  }
  out.push(Buffer.alloc((32 - (out.length % 32)) % 32));
  out.push(Buffer.alloc(Number(offset)));
  return Buffer.concat(out.parts);
}

/** A small llama-shaped file: 2 layers, 64 wide, Q4_K_M, a chat template. */
export function llamaSpec(overrides: Partial<Record<string, MetaValue>> = {}): GgufSpec {
  const metadata: Record<string, MetaValue> = {
    "general.architecture": { str: "llama" },
    "general.name": { str: "Test Llama" },
    "general.file_type": { u32: 15 },
    "llama.context_length": { u32: 4096 },
    "llama.block_count": { u32: 2 },
    "llama.embedding_length": { u32: 64 },
    "llama.attention.head_count": { u32: 4 },
    "llama.attention.head_count_kv": { u32: 2 },
    "tokenizer.ggml.tokens": { strs: ["<s>", "</s>", "a", "b"] },
    "tokenizer.chat_template": { str: "{{ messages }}" },
  };
  for (const [k, v] of Object.entries(overrides)) if (v) metadata[k] = v;
  const tensors: TestTensor[] = [{ name: "token_embd.weight", dims: [64, 4], type: 0 }];
  for (let l = 0; l < 2; l++) {
    tensors.push({ name: `blk.${l}.attn_q.weight`, dims: [256, 64], type: 12 });
    tensors.push({ name: `blk.${l}.ffn_down.weight`, dims: [256, 64], type: 14 });
  }
  return { metadata, tensors };
}

export async function writeGguf(file: string, spec: GgufSpec): Promise<Buffer> {
  const bytes = ggufBytes(spec);
  await writeFile(file, bytes);
  return bytes;
}
