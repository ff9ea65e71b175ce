/**
 * The output style picker (as `/output-style NAME`): how this chat's answers are written. A
 * style shapes the main conversation only; sub-agents keep their own agent's prompt (as in Claude
 * Code). Read again on focus, so a style picked with the slash command or added on disk shows.
 */
import { useCallback, useEffect, useState } from "react";
import type { CallResponse } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage, useBridgeEvent, useReconnected } from "../bridge/hooks.ts";
import { StyleIcon } from "../ui/more-icons.tsx";
import "./pickers.css";

export function OutputStylePicker({ conversationId }: { conversationId: string }) {
  const bridge = useBridge();
  const [data, setData] = useState<CallResponse<"outputStyles/list"> | undefined>(undefined);
  const [failure, setFailure] = useState<string | null>(null);
  const load = useCallback(() => {
    bridge.call("outputStyles/list", { conversationId }).then(
      (r) => {
        setData(r);
        setFailure(r.errors.length > 0 ? r.errors.join("\n") : null);
      },
      (err: unknown) => setFailure(errorMessage(err)),
    );
  }, [bridge, conversationId]);
  useEffect(load, [load]);
  useReconnected(load);
  useBridgeEvent("plugins/changed", load);

  const choose = async (style: string) => {
    try {
      await bridge.call("outputStyles/select", { conversationId, style });
      setFailure(null);
    } catch (err) {
      setFailure(errorMessage(err));
    }
    load();
  };

  const current = data?.styles.find((s) => s.name === data.current);
  return (
    <div className="picker">
      <label className="picker-field" title={current?.description || "Output style"}>
        <StyleIcon />
        <span className="visually-hidden">Output style for this chat</span>
        <select
          className="picker-select"
          value={data?.current ?? ""}
          disabled={!data}
          onFocus={load}
          onChange={(e) => void choose(e.target.value)}
        >
          {!data ? <option value="">Styles…</option> : null}
          {data?.styles.map((s) => (
            <option key={s.name} value={s.name} title={s.description}>
              {s.name === "default" ? "Default style" : s.name}
            </option>
          ))}
        </select>
      </label>
      {failure ? (
        <p className="picker-error" role="alert">
          {failure}
        </p>
      ) : null}
    </div>
  );
}
