/**
 * The editor's open files for one plugin: each tab's text as saved and as edited (dirty when they
 * differ), which one is active, and save through `editor/write` (which answers once the hot
 * reload it caused is done).
 */
import { useCallback, useRef, useState } from "react";
import type { CallResponse } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";

export type SaveOutcome = CallResponse<"editor/write">;

export interface OpenFile {
  path: string;
  saved: string;
  text: string;
}

export interface OpenFiles {
  files: OpenFile[];
  active: string | null;
  dirty: OpenFile[];
  open(path: string): Promise<void>;
  close(path: string): void;
  closeAll(): void;
  select(path: string): void;
  edit(path: string, text: string): void;
  /** Saves one file; resolves with the reload it caused. */
  save(path: string): Promise<SaveOutcome>;
  /** Forgets a file that was renamed or deleted. */
  drop(path: string): void;
}

export function useOpenFiles(plugin: string | null): OpenFiles {
  const bridge = useBridge();
  const [files, setFilesState] = useState<OpenFile[]>([]);
  const [active, setActive] = useState<string | null>(null);
  // The newest list, even before React renders it: Ctrl+S right after typing saves what was typed.
  const latest = useRef<OpenFile[]>([]);
  const setFiles = useCallback((next: (list: OpenFile[]) => OpenFile[]) => {
    latest.current = next(latest.current);
    setFilesState(latest.current);
  }, []);

  const open = useCallback(
    async (path: string) => {
      if (!plugin) return;
      setActive(path);
      if (latest.current.some((f) => f.path === path)) return;
      const { content } = await bridge.call("editor/read", { name: plugin, path });
      setFiles((list) =>
        list.some((f) => f.path === path)
          ? list
          : [...list, { path, saved: content, text: content }],
      );
    },
    [bridge, plugin, setFiles],
  );

  const close = useCallback(
    (path: string) => {
      const i = latest.current.findIndex((f) => f.path === path);
      setFiles((list) => list.filter((f) => f.path !== path));
      const next = latest.current;
      setActive((a) => (a === path ? (next[Math.min(i, next.length - 1)]?.path ?? null) : a));
    },
    [setFiles],
  );

  const save = useCallback(
    async (path: string) => {
      if (!plugin) throw new Error("no plugin is open");
      const file = latest.current.find((f) => f.path === path);
      if (!file) throw new Error(`${path} is not open`);
      const text = file.text;
      const outcome = await bridge.call("editor/write", { name: plugin, path, content: text });
      setFiles((list) => list.map((f) => (f.path === path ? { ...f, saved: text } : f)));
      return outcome;
    },
    [bridge, plugin, setFiles],
  );

  return {
    files,
    active,
    dirty: files.filter((f) => f.text !== f.saved),
    open,
    close,
    closeAll: () => {
      setFiles(() => []);
      setActive(null);
    },
    select: setActive,
    edit: (path, text) =>
      setFiles((list) => list.map((f) => (f.path === path ? { ...f, text } : f))),
    save,
    drop: (path) => {
      setFiles((list) => list.filter((f) => f.path !== path));
      setActive((a) => (a === path ? null : a));
    },
  };
}
