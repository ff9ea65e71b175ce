/**
 * A tiny random-weight llama GGUF for tests and benchmarks: node-llama-cpp loads the default one
 * (2 layers, 64 wide, ~400 tokens, under 1 MB) in well under a second. Its text is noise, so tests
 * assert structure; two knobs make that structure reachable on purpose:
 *
 * - `bias`: a fixed logit offset per token (every embedding carries a constant in dimension 0 and
 *   the output matrix's column 0 turns it into a per-token bias), e.g. `{ "<|im_end|>": -40 }`
 *   makes a model that never stops, for benchmarks.
 * - `follow`: "after token A, write token B" (attention and feed-forward weights are small, so the
 *   last hidden state is close to the current token's embedding, and B's output row is pushed
 *   along A's embedding), e.g. `{ "\n": "<tool_call>" }` makes every answer open a tool call.
 *
 * The vocabulary is SentencePiece-style ("llama" tokenizer): control tokens, Qwen's added tokens
 * (<think>, <tool_call>…), the 256 byte tokens, printable ASCII and a few words.
 */
import { CHATML_TEMPLATE, QWEN_TOOLS_TEMPLATE } from "./chat-templates.ts";
import { writeGguf, type GgufTensor, type GgufValue } from "./gguf-write.ts";
import { seededRandom } from "../../../core/seeded-random.ts";

export interface TinyGgufOptions {
  layers?: number;
  width?: number;
  heads?: number;
  feedForward?: number;
  /** The context length the model says it was trained on. */
  contextLength?: number;
  seed?: number;
  /** general.name (node-llama-cpp also looks at it to pick a chat wrapper). */
  name?: string;
  /** "chatml" (no tool calling in the template), "qwen-tools" (its own tool calling), any Jinja text, or null for none. */
  chatTemplate?: "chatml" | "qwen-tools" | (string & {}) | null;
  bias?: Record<string, number>;
  follow?: Record<string, string>;
  /**
   * Tensors left as holes of a sparse file (zeros, no disk or memory used to write them): a
   * header describing a model far larger than this machine, for out-of-memory tests.
   */
  sparse?: boolean;
}

export interface TinyGguf {
  file: string;
  bytes: number;
  /** Token pieces by id ("▁" for a space, "<0x0A>" for the newline byte). */
  vocab: string[];
}

const CONTROL = ["<unk>", "<s>", "</s>", "<|im_start|>", "<|im_end|>"];
/** Qwen's added tokens: whole tokens even in plain text (llama.cpp's USER_DEFINED). */
const ADDED = [
  "<think>",
  "</think>",
  "<tool_call>",
  "</tool_call>",
  "<tool_response>",
  "</tool_response>",
];
/** The text a tool call starts with after <tool_call> (Qwen's and Islet's text protocol), as one token. */
export const CALL_OPENING = '\n{"name":▁"';
const WORDS = [
  "▁the",
  "▁a",
  "▁and",
  "▁to",
  "▁of",
  "▁is",
  "▁in",
  "▁it",
  "▁you",
  "▁I",
  "▁that",
  "▁for",
  "▁Hello",
  "▁world",
  "▁file",
  "▁read",
  "▁write",
  "system",
  "user",
  "assistant",
  "arguments",
  "path",
  "text",
  '"}',
  '",',
  "▁{",
  "},",
  "▁[",
  "],",
  "▁true",
  "▁false",
  "▁null",
];
/**
 * Every prefix of CALL_OPENING is a token, and no other token joins two of its characters, so
 * SentencePiece's merges turn it into exactly one token (as Qwen's BPE nearly does).
 */
const OPENING_PREFIXES = [...CALL_OPENING].map((_, i) => CALL_OPENING.slice(0, i + 1)).slice(1);
const TYPE_NORMAL = 1;
const TYPE_UNKNOWN = 2;
const TYPE_CONTROL = 3;
const TYPE_USER_DEFINED = 4;
const TYPE_BYTE = 6;
/** Dimension 0 of every embedding: what the per-token bias multiplies. */
const BIAS_CARRIER = 3;
const NOISE_SCALE = 0.02;
const OUTPUT_NOISE = 0.125;
const FOLLOW_STRENGTH = 24;

function byteToken(b: number): string {
  return `<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`;
}

function buildVocab(): { pieces: string[]; types: number[]; scores: number[] } {
  const pieces: string[] = [];
  const types: number[] = [];
  const scores: number[] = [];
  const add = (piece: string, type: number, score: number) => {
    pieces.push(piece);
    types.push(type);
    scores.push(score);
  };
  add(CONTROL[0], TYPE_UNKNOWN, 0);
  for (const t of CONTROL.slice(1)) add(t, TYPE_CONTROL, 0);
  for (const t of ADDED) add(t, TYPE_USER_DEFINED, 0);
  for (let b = 0; b < 256; b++) add(byteToken(b), TYPE_BYTE, 0);
  add("▁", TYPE_NORMAL, -1);
  for (let c = 0x21; c <= 0x7e; c++) add(String.fromCharCode(c), TYPE_NORMAL, -1);
  // SentencePiece merges prefer higher scores: longer pieces win.
  for (const w of [...WORDS, ...OPENING_PREFIXES]) add(w, TYPE_NORMAL, w.length);
  return { pieces, types, scores };
}

/** The pieces of the tiny vocabulary, by token id (the same for every tiny model). */
export function tinyVocabulary(): string[] {
  return buildVocab().pieces;
}

/**
 * A `follow` script for a fixed answer: after the prompt's last newline, `pieces` in order (as
 * text: " " for "▁"), then the end token. Greedy decoding writes it exactly.
 */
export function scriptedAnswer(pieces: string[]): Record<string, string> {
  const follow: Record<string, string> = {};
  const chain = ["\n", ...pieces, "<|im_end|>"];
  for (let i = 0; i + 1 < chain.length; i++) follow[chain[i]] = chain[i + 1];
  return follow;
}

/** Normal samples (Box-Muller) from a seeded generator. */
function random(seed: number): { normal: () => number } {
  const uniform = seededRandom(seed);
  return {
    normal: () => Math.sqrt(-2 * Math.log(uniform() || 1e-12)) * Math.cos(2 * Math.PI * uniform()),
  };
}

/** The token id of a piece, written as text (" " for "▁", a single byte for its byte token). */
function idOf(pieces: string[], text: string): number {
  const piece = text.replace(/ /g, "▁");
  let id = pieces.indexOf(piece);
  if (id === -1 && Buffer.byteLength(text) === 1)
    id = pieces.indexOf(byteToken(Buffer.from(text)[0]));
  if (id === -1) throw new Error(`tiny-gguf: no token for ${JSON.stringify(text)}`);
  return id;
}

type Init = "embedding" | "output" | "ones" | "small";

/** The llama tensors: name, ggml dims, and how a dense model fills them. */
function layout(layers: number, width: number, ff: number, vocab: number) {
  const t = (name: string, dims: number[], init: Init) => ({ name, dims, init });
  const out = [
    t("token_embd.weight", [width, vocab], "embedding"),
    t("output_norm.weight", [width], "ones"),
    t("output.weight", [width, vocab], "output"),
  ];
  for (let i = 0; i < layers; i++) {
    const p = `blk.${i}.`;
    out.push(t(`${p}attn_norm.weight`, [width], "ones"), t(`${p}ffn_norm.weight`, [width], "ones"));
    for (const n of ["attn_q", "attn_k", "attn_v", "attn_output"]) {
      out.push(t(`${p}${n}.weight`, [width, width], "small"));
    }
    out.push(
      t(`${p}ffn_gate.weight`, [width, ff], "small"),
      t(`${p}ffn_up.weight`, [width, ff], "small"),
      t(`${p}ffn_down.weight`, [ff, width], "small"),
    );
  }
  return out;
}

/** Embeddings and output rows with the bias carrier, `bias` and `follow` written in. */
function scriptedWeights(
  opts: TinyGgufOptions,
  pieces: string[],
  width: number,
  noise: (n: number, scale: number) => Float32Array,
): { embedding: Float32Array; output: Float32Array } {
  const vocab = pieces.length;
  const embedding = noise(vocab * width, 1);
  for (let t = 0; t < vocab; t++) embedding[t * width] = BIAS_CARRIER;
  const output = noise(vocab * width, OUTPUT_NOISE);
  // After RMS norm, dimension 0 of the hidden state is about BIAS_CARRIER / rms(embedding).
  const carried = BIAS_CARRIER / Math.sqrt((BIAS_CARRIER ** 2 + width - 1) / width);
  for (let t = 0; t < vocab; t++) output[t * width] = 0;
  for (const [text, logit] of Object.entries(opts.bias ?? {})) {
    output[idOf(pieces, text) * width] = logit / carried;
  }
  for (const [fromText, toText] of Object.entries(opts.follow ?? {})) {
    const from = idOf(pieces, fromText) * width;
    const to = idOf(pieces, toText) * width;
    let norm2 = 0;
    for (let d = 1; d < width; d++) norm2 += embedding[from + d] ** 2;
    for (let d = 1; d < width; d++) {
      output[to + d] += (FOLLOW_STRENGTH * embedding[from + d]) / Math.sqrt(norm2);
    }
  }
  return { embedding, output };
}

function template(t: TinyGgufOptions["chatTemplate"]): string | null {
  if (t === undefined || t === "chatml") return CHATML_TEMPLATE;
  if (t === "qwen-tools") return QWEN_TOOLS_TEMPLATE;
  return t;
}

/** Writes the model to `file`. */
export async function writeTinyGguf(file: string, opts: TinyGgufOptions = {}): Promise<TinyGguf> {
  const layers = opts.layers ?? 2;
  const width = opts.width ?? 64;
  const heads = opts.heads ?? 4;
  const ff = opts.feedForward ?? width * 2;
  const { pieces, types, scores } = buildVocab();
  const vocab = pieces.length;
  const rng = random(opts.seed ?? 1);
  const noise = (n: number, scale: number) => {
    const a = new Float32Array(n);
    for (let i = 0; i < n; i++) a[i] = rng.normal() * scale;
    return a;
  };
  const shapes = layout(layers, width, ff, vocab);
  let tensors: GgufTensor[];
  if (opts.sparse) tensors = shapes.map(({ name, dims }) => ({ name, dims }));
  else {
    const { embedding, output } = scriptedWeights(opts, pieces, width, noise);
    tensors = shapes.map(({ name, dims, init }) => {
      const n = dims.reduce((x, y) => x * y, 1);
      const data =
        init === "embedding"
          ? embedding
          : init === "output"
            ? output
            : init === "ones"
              ? new Float32Array(n).fill(1)
              : noise(n, NOISE_SCALE);
      return { name, dims, data };
    });
  }

  const chatTemplate = template(opts.chatTemplate);
  const metadata: Record<string, GgufValue> = {
    "general.architecture": { str: "llama" },
    "general.name": { str: opts.name ?? "Tiny Random" },
    "general.file_type": { u32: 0 },
    "llama.context_length": { u32: opts.contextLength ?? 4096 },
    "llama.embedding_length": { u32: width },
    "llama.block_count": { u32: layers },
    "llama.feed_forward_length": { u32: ff },
    "llama.attention.head_count": { u32: heads },
    "llama.attention.head_count_kv": { u32: heads },
    "llama.attention.layer_norm_rms_epsilon": { f32: 1e-5 },
    "llama.rope.dimension_count": { u32: width / heads },
    "llama.vocab_size": { u32: vocab },
    "tokenizer.ggml.model": { str: "llama" },
    "tokenizer.ggml.tokens": { strs: pieces },
    "tokenizer.ggml.scores": { f32s: scores },
    "tokenizer.ggml.token_type": { i32s: types },
    "tokenizer.ggml.unknown_token_id": { u32: 0 },
    "tokenizer.ggml.bos_token_id": { u32: 1 },
    "tokenizer.ggml.eos_token_id": { u32: idOf(pieces, "<|im_end|>") },
    "tokenizer.ggml.padding_token_id": { u32: 0 },
    "tokenizer.ggml.add_bos_token": { bool: false },
    "tokenizer.ggml.add_eos_token": { bool: false },
    // No "▁" before text that follows a special token: tool-call openings tokenize the same everywhere.
    "tokenizer.ggml.add_space_prefix": { bool: false },
    ...(chatTemplate ? { "tokenizer.chat_template": { str: chatTemplate } } : {}),
  };
  const bytes = await writeGguf(file, metadata, tensors);
  return { file, bytes, vocab: pieces };
}
