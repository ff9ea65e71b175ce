/** A small "Copy" button that says "Copied" for a moment (or that copying was refused). */
import { useEffect, useState } from "react";
import { CopyIcon } from "./chat-icons.tsx";
import { copyText } from "./copy.ts";

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const t = setTimeout(() => setState("idle"), 1500);
    return () => clearTimeout(t);
  }, [state]);
  return (
    <button
      type="button"
      className="msg-action"
      aria-label={label}
      title={label}
      onClick={() => void copyText(text).then((ok) => setState(ok ? "copied" : "failed"))}
    >
      <CopyIcon />
      <span aria-live="polite">
        {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : "Copy"}
      </span>
    </button>
  );
}
