/**
 * Install, Update and Remove as the Catalog tab runs them: one operation per card at a time,
 * followed through `packs/progress` (addressed to this window only), ending in a short note or
 * the one-line error, shown in place on the card.
 */
import { useCallback, useRef, useState } from "react";
import { BridgeError, type CallRequest, type EventPayload } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage, useBridgeEvent } from "../bridge/hooks.ts";

export type OperationKind = "install" | "update" | "remove";
export type Phase = EventPayload<"packs/progress">["phase"];

export interface Operation {
  kind: OperationKind;
  id: string;
  running: boolean;
  phase: Phase | null;
  message: string;
  fraction: number | null;
  /** The one line saying what failed. */
  error: string | null;
  /** How it ended, for a person; tone says how to show it. */
  note: { text: string; tone: "ok" | "warn" | "muted" } | null;
}

export interface PackOperations {
  /** By card key (a catalog pack's name, an installed pack's name, or "url" for Add from URL). */
  ops: Record<string, Operation>;
  install(key: string, request: Omit<CallRequest<"packs/install">, "operation">): Promise<boolean>;
  update(key: string, name: string): Promise<boolean>;
  remove(key: string, name: string): Promise<boolean>;
  dismiss(key: string): void;
}

/** A refusal as the card shows it: the problem's own line, without the call's name. */
function oneLine(err: unknown): string {
  if (err instanceof BridgeError)
    return err.problem.suggestion
      ? `${err.problem.title}; ${err.problem.suggestion}`
      : err.problem.title;
  return errorMessage(err);
}

const short = (commit: string | null) => (commit ? commit.slice(0, 7) : "?");

function loadNote(reports: { name: string; ok: boolean; error?: string }[]): string {
  const failed = reports.filter((r) => !r.ok);
  return failed.length
    ? ` — ${failed.map((r) => `${r.name} did not load: ${r.error ?? "failed"}`).join("; ")}`
    : "";
}

export function usePackOperations(): PackOperations {
  const bridge = useBridge();
  const [ops, setOps] = useState<Record<string, Operation>>({});
  const keyOf = useRef(new Map<string, string>());

  useBridgeEvent("packs/progress", (p) => {
    const key = keyOf.current.get(p.operation);
    if (key === undefined) return;
    setOps((all) =>
      all[key]?.id === p.operation
        ? {
            ...all,
            [key]: {
              ...all[key],
              phase: p.phase,
              message: p.message,
              fraction: p.fraction ?? null,
            },
          }
        : all,
    );
  });

  const run = useCallback(
    async (
      key: string,
      kind: OperationKind,
      call: (id: string) => Promise<Operation["note"]>,
    ): Promise<boolean> => {
      const id = crypto.randomUUID();
      keyOf.current.set(id, key);
      setOps((all) => ({
        ...all,
        [key]: {
          kind,
          id,
          running: true,
          phase: null,
          message: "",
          fraction: null,
          error: null,
          note: null,
        },
      }));
      const settle = (patch: Partial<Operation>) =>
        setOps((all) =>
          all[key]?.id === id ? { ...all, [key]: { ...all[key], running: false, ...patch } } : all,
        );
      try {
        const note = await call(id);
        settle({ note });
        return note?.tone !== "muted";
      } catch (err) {
        settle({ error: oneLine(err) });
        return false;
      } finally {
        keyOf.current.delete(id);
      }
    },
    [],
  );

  const install = useCallback<PackOperations["install"]>(
    (key, request) =>
      run(key, "install", async (operation) => {
        const r = await bridge.call("packs/install", { ...request, operation });
        if (r.status === "cancelled")
          return { text: "Cancelled — nothing was installed.", tone: "muted" };
        const n = r.pack?.plugins.length ?? 0;
        const warn = loadNote(r.reports);
        return {
          text: `Installed ${r.pack?.name ?? ""} — ${n} plugin${n === 1 ? "" : "s"}, ready for the next message${warn}`,
          tone: warn ? "warn" : "ok",
        };
      }),
    [bridge, run],
  );

  const update = useCallback<PackOperations["update"]>(
    (key, name) =>
      run(key, "update", async (operation) => {
        const r = await bridge.call("packs/update", { name, operation });
        if (r.status === "cancelled")
          return { text: "Cancelled — the installed version stays.", tone: "muted" };
        if (!r.changed) return { text: `Already up to date (${short(r.to)}).`, tone: "ok" };
        const warn = loadNote(r.reports);
        return {
          text: `Updated ${short(r.from)} → ${short(r.to)}${warn}`,
          tone: warn ? "warn" : "ok",
        };
      }),
    [bridge, run],
  );

  const remove = useCallback<PackOperations["remove"]>(
    (key, name) =>
      run(key, "remove", async (operation) => {
        const r = await bridge.call("packs/remove", { name, operation });
        const n = r.pack?.plugins.length ?? 0;
        return {
          text: `Removed ${r.pack?.name ?? name} and its ${n} plugin${n === 1 ? "" : "s"}.`,
          tone: "ok",
        };
      }),
    [bridge, run],
  );

  const dismiss = useCallback(
    (key: string) =>
      setOps((all) => {
        if (!all[key] || all[key].running) return all;
        const next = { ...all };
        delete next[key];
        return next;
      }),
    [],
  );

  return { ops, install, update, remove, dismiss };
}
