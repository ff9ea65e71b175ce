/**
 * What a GGUF model file is, read from its header before anything loads it: architecture,
 * parameter count, context length, quantization, and the shape figures the memory estimate
 * needs. A truncated, non-GGUF or unsupported file is a ModelFileError naming the file and
 * what to do, never a crash.
 */
import { basename } from "node:path";
import { KNOWN_ARCHITECTURES, NOT_CHAT } from "./gguf/architectures.ts";
import { FILE_TYPE_NAMES, tensorBytes } from "./gguf/ggml.ts";
import { GgufFormatError, parseGgufHeader, type GgufHeader, type GgufValue } from "./gguf/parse.ts";
import { ModelFileError } from "./errors.ts";

export interface GgufInfo {
  architecture: string;
  /** general.name, when the file says. */
  name: string | null;
  /** Sum of the tensors' elements. */
  parameterCount: number;
  /** The context length the model was trained for. */
  contextLength: number;
  /** The quantization ("Q4_K_M"), or "unknown". */
  fileType: string;
  blockCount: number;
  embeddingLength: number;
  headCount: number;
  headCountKv: number;
  /** Per attention head; 0 when the file does not say (embeddingLength / headCount then). */
  keyLength: number;
  valueLength: number;
  /** Whether the file carries a chat template (tokenizer.chat_template). */
  hasChatTemplate: boolean;
  /** The template or the vocabulary knows `<think>` (the model may think before answering). */
  thinking: boolean;
  fileSize: number;
}

const PULL_AGAIN = "delete it and download it again (`islet models rm`, then `islet models pull`)";

function num(v: GgufValue | undefined): number {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  // Some architectures give a per-layer array (e.g. head_count_kv): the largest layer counts.
  if (Array.isArray(v)) return Math.max(0, ...v.map((x) => num(x)));
  return 0;
}

function fail(file: string, problem: string, todo: string): never {
  throw new ModelFileError(`${basename(file)}: ${problem} — ${todo}`);
}

function describe(file: string, h: GgufHeader): GgufInfo {
  const m = h.metadata;
  const arch = m.get("general.architecture");
  if (typeof arch !== "string" || arch === "") {
    fail(file, "a GGUF file without general.architecture, not a model", "use a model GGUF file");
  }
  const splits = num(m.get("split.count"));
  if (splits > 1) {
    fail(
      file,
      `part ${num(m.get("split.no")) + 1} of a model split into ${splits} files`,
      "pull a single-file quantization of the model, or merge the parts with llama-gguf-split --merge",
    );
  }
  if (!KNOWN_ARCHITECTURES.has(arch)) {
    fail(
      file,
      `architecture "${arch}" is not supported by this llama.cpp`,
      "choose another model, or update Islet",
    );
  }
  const notChat = NOT_CHAT[arch];
  if (notChat)
    fail(file, `${notChat} (${arch}), not a chat model`, "choose a chat (instruct) model");

  let parameters = 0n;
  let end = 0n;
  for (const t of h.tensors) {
    const elements = t.dims.reduce((a, b) => a * b, 1n);
    parameters += elements;
    const bytes = tensorBytes(t.type, elements);
    if (bytes === undefined) {
      fail(
        file,
        `tensor ${t.name} uses type ${t.type}, unknown to this llama.cpp`,
        "choose another quantization, or update Islet",
      );
    }
    if (t.offset + bytes > end) end = t.offset + bytes;
  }
  const expected = h.dataOffset + end;
  if (BigInt(h.fileSize) < expected) {
    fail(
      file,
      `truncated: ${h.fileSize} of ${expected} bytes (an interrupted download?)`,
      PULL_AGAIN,
    );
  }
  const ft = m.get("general.file_type");
  const template = m.get("tokenizer.chat_template");
  const tokens = m.get("tokenizer.ggml.tokens");
  const vocabularyThinks =
    typeof tokens === "object" && !Array.isArray(tokens) && !!tokens.markers?.includes("<think>");
  const key = (k: string) => m.get(`${arch}.${k}`);
  const headCount = num(key("attention.head_count"));
  return {
    architecture: arch,
    name: typeof m.get("general.name") === "string" ? (m.get("general.name") as string) : null,
    parameterCount: Number(parameters),
    contextLength: num(key("context_length")),
    fileType: ft === undefined ? "unknown" : (FILE_TYPE_NAMES[num(ft)] ?? `type ${num(ft)}`),
    blockCount: num(key("block_count")),
    embeddingLength: num(key("embedding_length")),
    headCount,
    headCountKv: num(key("attention.head_count_kv")) || headCount,
    keyLength: num(key("attention.key_length")),
    valueLength: num(key("attention.value_length")),
    hasChatTemplate: typeof template === "string",
    thinking: (typeof template === "string" && template.includes("<think>")) || vocabularyThinks,
    fileSize: h.fileSize,
  };
}

const TODO: Record<GgufFormatError["kind"], string> = {
  "not-gguf": "models must be GGUF files (.gguf); pull one with `islet models pull`",
  truncated: PULL_AGAIN,
  corrupt: PULL_AGAIN,
  unsupported: "download a current GGUF conversion of the model",
};

/** The header of a model file, checked; ModelFileError (one line) when it cannot be used. */
export async function readGgufInfo(file: string): Promise<GgufInfo> {
  let header: GgufHeader;
  try {
    header = await parseGgufHeader(file);
  } catch (err) {
    if (err instanceof GgufFormatError) {
      const what = err.kind === "corrupt" ? `damaged header (${err.message})` : err.message;
      fail(file, what, TODO[err.kind]);
    }
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") fail(file, "no such file", "check the path, or `islet models list`");
    if (code === "EISDIR") fail(file, "a folder, not a model file", "name a .gguf file");
    fail(file, `cannot be read (${(err as Error).message})`, "check the file's permissions");
  }
  return describe(file, header);
}
