/**
 * An open session file being appended to. Each record is one `write` of one complete line on an
 * O_APPEND descriptor: when `write` returns the line is in the OS page cache, so it survives the
 * process being killed; `sync()` (fsync) makes it survive power loss too. A crash mid-write can
 * therefore tear at most the last line, and opening repairs that before anything is appended.
 */
import {
  closeSync,
  constants,
  fstatSync,
  fsync,
  ftruncateSync,
  openSync,
  readSync,
  writeSync,
} from "node:fs";
import { promisify } from "node:util";
import { noFollow } from "./session-file.ts";

const fsyncAsync = promisify(fsync);
const NEWLINE = 0x0a;
const CHUNK = 64 * 1024;

/** Byte offset just past the last "\n" in the first `size` bytes (0 when there is none). */
function tailStart(fd: number, size: number): number {
  const buf = Buffer.allocUnsafe(CHUNK);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - CHUNK);
    const n = readSync(fd, buf, 0, end - start, start);
    const at = buf.subarray(0, n).lastIndexOf(NEWLINE);
    if (at >= 0) return start + at + 1;
    end = start;
  }
  return 0;
}

function readRange(fd: number, start: number, end: number): string {
  const buf = Buffer.allocUnsafe(end - start);
  let done = 0;
  while (done < buf.length) {
    const n = readSync(fd, buf, done, buf.length - done, start + done);
    if (n === 0) break;
    done += n;
  }
  return buf.subarray(0, done).toString("utf8");
}

function isCompleteJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export type TailRepair = "clean" | "terminated" | "truncated";

export class AppendFile {
  readonly path: string;
  /** What opening did to the file's last line (for tests and diagnostics). */
  readonly repair: TailRepair;
  private readonly fd: number;
  private pendingSync: Promise<void> = Promise.resolve();
  private closed = false;

  /**
   * Opens an existing session file (never creates one) and repairs a torn tail. `written`: the
   * bytes this process wrote when it made the file: while it still has that size, nobody else has
   * written to it and there is no tail to look at.
   */
  constructor(path: string, options: { written?: number } = {}) {
    this.path = path;
    // Read+append: reads for the repair, and every write lands at the end whatever the offset.
    // Never through a link (session-file.ts): a planted one would have us append elsewhere.
    this.fd = openSync(path, noFollow(constants.O_RDWR | constants.O_APPEND));
    const stat = fstatSync(this.fd);
    if (!stat.isFile()) {
      closeSync(this.fd);
      throw Object.assign(new Error(`${path} is not a file`), { code: "EISDIR" });
    }
    try {
      this.repair = stat.size === options.written ? "clean" : this.repairTail();
    } catch (err) {
      closeSync(this.fd);
      throw err;
    }
  }

  /**
   * A last line without "\n" is either a record whose newline never made it (valid JSON: keep
   * it, add the newline) or a torn write (cut it off), so the next record starts a fresh line.
   */
  private repairTail(): TailRepair {
    const size = fstatSync(this.fd).size;
    if (size === 0) return "clean";
    const start = tailStart(this.fd, size);
    if (start === size) return "clean";
    if (isCompleteJson(readRange(this.fd, start, size))) {
      this.writeBytes(Buffer.from("\n"));
      return "terminated";
    }
    ftruncateSync(this.fd, start);
    return "truncated";
  }

  private writeBytes(buf: Buffer): void {
    let off = 0;
    // Regular files take the whole buffer in one write; the loop only covers a short write.
    while (off < buf.length) off += writeSync(this.fd, buf, off, buf.length - off);
  }

  /** `text` must be whole lines, each ending in "\n". */
  write(text: string): void {
    if (this.closed) throw new Error(`session file is closed: ${this.path}`);
    this.writeBytes(Buffer.from(text, "utf8"));
  }

  /** fsync; chained so a sync requested later always covers writes made before it. */
  sync(): Promise<void> {
    if (this.closed) return Promise.resolve();
    const fd = this.fd;
    // A failed earlier sync was reported to its caller; it must not cancel this one.
    this.pendingSync = this.pendingSync.catch(() => undefined).then(() => fsyncAsync(fd));
    return this.pendingSync;
  }

  /** Waits for pending syncs, then closes (never closes an fd an fsync is still using). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pendingSync.catch(() => undefined);
    closeSync(this.fd);
  }
}
