/**
 * The host side of the memory ledger (prelude-memory.ts) for one isolate. isolated-vm's own limit
 * covers the V8 heap and fixed-length ArrayBuffers; WebAssembly memory and resizable buffers are
 * reserved here, against the same limit, with what the heap and fixed buffers use.
 */
import type IsolatedVM from "isolated-vm";
import { SandboxFault } from "./types.ts";

const MB = 1024 * 1024;
const mb = (bytes: number) => Math.ceil(bytes / MB);

export class ReservedMemory {
  readonly #iso: IsolatedVM.Isolate;
  readonly #memoryMb: number;
  /** Stops the sandbox with `fault` and returns it. */
  readonly #stop: (fault: SandboxFault) => SandboxFault;
  /** The ledger's reservations as last counted; maybe some were collected since. */
  #reserved = 0;

  constructor(
    iso: IsolatedVM.Isolate,
    memoryMb: number,
    stop: (fault: SandboxFault) => SandboxFault,
  ) {
    this.#iso = iso;
    this.#memoryMb = memoryMb;
    this.#stop = stop;
  }

  /**
   * The ledger in the isolate asks here before each WebAssembly memory or resizable buffer: the
   * bytes still free after `wanted`, or the sandbox stops (its execution ends when this callback
   * returns). Asked for 0 bytes it only answers.
   */
  reserve(live: number, wanted: number, refuse: boolean, what: string): number {
    const { heap, buffers } = this.inUse();
    const free = this.#memoryMb * MB - heap - buffers - live;
    if (!refuse && (wanted === 0 || wanted <= free)) {
      this.#reserved = live + wanted;
      return free - wanted;
    }
    this.#stop(
      new SandboxFault(
        "memory",
        `the plugin asked for ${mb(wanted)} MB more ${what.slice(0, 80)} with ${mb(live)} MB of such memory, ${mb(heap)} MB of heap and ${mb(buffers)} MB of buffers in use: over its memory limit (${this.#memoryMb} MB)`,
      ),
    );
    return 0;
  }

  /**
   * isolated-vm's allocator lets fixed-length buffers fill the limit without seeing the
   * reservations: after each entry (its promise jobs included) they are added up here, and the
   * reservations counted again (`recount`) before the sandbox is stopped for it.
   */
  check(what: string, recount: () => number): void {
    if (this.#reserved === 0) return;
    const limit = this.#memoryMb * MB;
    const before = this.inUse();
    if (before.heap + before.buffers + this.#reserved <= limit) return;
    this.#reserved = recount();
    const { heap, buffers } = this.inUse();
    if (heap + buffers + this.#reserved <= limit) return;
    throw this.#stop(
      new SandboxFault(
        "memory",
        `the plugin holds ${mb(buffers)} MB of buffers and ${mb(heap)} MB of heap besides ${mb(this.#reserved)} MB of WebAssembly memory and resizable buffers after ${what}: over its memory limit (${this.#memoryMb} MB)`,
      ),
    );
  }

  /** The V8 heap and the fixed-length ArrayBuffers (isolated-vm's allocator) in use. */
  inUse(): { heap: number; buffers: number } {
    // Never a native call on a disposed isolate (its memory limit, or the sandbox stopping).
    if (this.#iso.isDisposed) return { heap: 0, buffers: 0 };
    try {
      const stats = this.#iso.getHeapStatisticsSync();
      return { heap: stats.used_heap_size, buffers: stats.externally_allocated_size };
    } catch {
      return { heap: 0, buffers: 0 };
    }
  }
}
