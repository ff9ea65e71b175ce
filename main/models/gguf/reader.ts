/**
 * A buffered little-endian reader over a file handle, for GGUF headers: it reads ahead in 1 MiB
 * chunks and never past the end of the file, so a truncated header is an `EndOfFile` error with
 * the offset, not a short read that turns into garbage.
 */
import type { FileHandle } from "node:fs/promises";

const CHUNK = 1 << 20;

export class EndOfFile extends Error {
  readonly offset: number;
  constructor(offset: number) {
    super(`the file ends at byte ${offset}`);
    this.offset = offset;
  }
}

export class ByteReader {
  #buf = Buffer.alloc(0);
  /** File offset of #buf[0]. */
  #start = 0;
  #pos = 0;
  readonly #fh: FileHandle;
  readonly size: number;

  constructor(fh: FileHandle, size: number) {
    this.#fh = fh;
    this.size = size;
  }

  /** File offset of the next byte to read. */
  get offset(): number {
    return this.#start + this.#pos;
  }

  async #need(n: number): Promise<void> {
    if (this.#pos + n <= this.#buf.length) return;
    const at = this.offset;
    if (at + n > this.size) throw new EndOfFile(this.size);
    const want = Math.min(Math.max(n, CHUNK), this.size - at);
    const buf = Buffer.allocUnsafe(want);
    let got = 0;
    while (got < want) {
      const { bytesRead } = await this.#fh.read(buf, got, want - got, at + got);
      if (bytesRead === 0) throw new EndOfFile(at + got);
      got += bytesRead;
    }
    this.#buf = buf;
    this.#start = at;
    this.#pos = 0;
  }

  async u8(): Promise<number> {
    await this.#need(1);
    return this.#buf.readUInt8(this.#pos++);
  }

  async u32(): Promise<number> {
    await this.#need(4);
    const v = this.#buf.readUInt32LE(this.#pos);
    this.#pos += 4;
    return v;
  }

  async u64(): Promise<bigint> {
    await this.#need(8);
    const v = this.#buf.readBigUInt64LE(this.#pos);
    this.#pos += 8;
    return v;
  }

  async i32(): Promise<number> {
    await this.#need(4);
    const v = this.#buf.readInt32LE(this.#pos);
    this.#pos += 4;
    return v;
  }

  async i64(): Promise<bigint> {
    await this.#need(8);
    const v = this.#buf.readBigInt64LE(this.#pos);
    this.#pos += 8;
    return v;
  }

  async f32(): Promise<number> {
    await this.#need(4);
    const v = this.#buf.readFloatLE(this.#pos);
    this.#pos += 4;
    return v;
  }

  async f64(): Promise<number> {
    await this.#need(8);
    const v = this.#buf.readDoubleLE(this.#pos);
    this.#pos += 8;
    return v;
  }

  async bytes(n: number): Promise<Buffer> {
    await this.#need(n);
    const v = this.#buf.subarray(this.#pos, this.#pos + n);
    this.#pos += n;
    return v;
  }

  /** Moves forward without keeping the bytes (large arrays in the metadata). */
  async skip(n: number): Promise<void> {
    if (this.offset + n > this.size) throw new EndOfFile(this.size);
    if (this.#pos + n <= this.#buf.length) {
      this.#pos += n;
      return;
    }
    this.#start = this.offset + n;
    this.#buf = Buffer.alloc(0);
    this.#pos = 0;
  }
}
