/**
 * "Try on a recorded turn": pick a session of this workspace and one of its prompts; the engine
 * rebuilds what the model would have received, with this plugin's previous version and with the
 * saved one (no model call), and Monaco's diff editor shows the difference.
 */
import { DiffEditor } from "@monaco-editor/react";
import { useEffect, useState } from "react";
import type { CallResponse } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage } from "../bridge/hooks.ts";
import { CloseIcon } from "../ui/icons.tsx";
import "./monaco-setup.ts";
import { useColorScheme } from "./useColorScheme.ts";
import { themeFor } from "./monaco-themes.ts";

type Turns = CallResponse<"editor/recordedTurns">;
type Result = CallResponse<"editor/replay">;

function summary(r: Result): string {
  const parts: string[] = [];
  if (r.before.system !== r.after.system) parts.push("system prompt changed");
  const bm = r.before.messages.length;
  const am = r.after.messages.length;
  if (bm !== am) parts.push(`${bm} → ${am} messages`);
  else if (JSON.stringify(r.before.messages) !== JSON.stringify(r.after.messages))
    parts.push("messages changed");
  const bt = r.before.tools.map((t) => t.name).join();
  const at = r.after.tools.map((t) => t.name).join();
  if (bt !== at) parts.push(`tools offered: ${r.before.tools.length} → ${r.after.tools.length}`);
  return parts.length === 0
    ? "No difference: the model would receive the same request"
    : parts.join(" · ");
}

export function ReplayPanel({ plugin, onClose }: { plugin: string; onClose(): void }) {
  const bridge = useBridge();
  const scheme = useColorScheme();
  const [turns, setTurns] = useState<Turns | null>(null);
  const [session, setSession] = useState<string | null>(null);
  const [turn, setTurn] = useState(0);
  const [result, setResult] = useState<Result | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    bridge.call("editor/recordedTurns", session ? { sessionId: session } : {}).then(
      (r) => {
        if (!live) return;
        setTurns(r);
        setSession(r.sessionId);
        setTurn(Math.max(0, r.turns.length - 1));
      },
      (e: unknown) => live && setError(errorMessage(e)),
    );
    return () => {
      live = false;
    };
  }, [bridge, session]);

  const run = async () => {
    if (!session) return;
    setBusy(true);
    setError(null);
    try {
      setResult(await bridge.call("editor/replay", { name: plugin, sessionId: session, turn }));
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="replay" aria-labelledby="replay-title">
      <header className="replay-head">
        <h2 id="replay-title">Try on a recorded turn</h2>
        <label className="field-inline">
          <span>Session</span>
          <select
            value={session ?? ""}
            onChange={(e) => {
              setResult(null);
              setSession(e.target.value);
            }}
            disabled={!turns || turns.sessions.length === 0}
          >
            {turns?.sessions.map((s) => (
              <option key={s.id} value={s.id}>
                {s.title}
              </option>
            ))}
          </select>
        </label>
        <label className="field-inline">
          <span>Turn</span>
          <select
            value={turn}
            onChange={(e) => {
              setResult(null);
              setTurn(Number(e.target.value));
            }}
            disabled={!turns || turns.turns.length === 0}
          >
            {turns?.turns.map((t) => (
              <option key={t.index} value={t.index}>
                {t.index + 1}. {t.text.replace(/\s+/g, " ").slice(0, 60)}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button button-primary"
          onClick={() => void run()}
          disabled={busy || !turns || turns.turns.length === 0}
        >
          {busy ? "Running…" : "Run"}
        </button>
        <button
          type="button"
          className="icon-button replay-close"
          onClick={onClose}
          aria-label="Close the replay"
        >
          <CloseIcon />
        </button>
      </header>
      {error ? (
        <p className="replay-note error-text" role="alert">
          {error}
        </p>
      ) : turns && turns.sessions.length === 0 ? (
        <p className="replay-note">
          No recorded sessions in this workspace yet. Chat once, then try the plugin on that turn.
        </p>
      ) : result ? (
        <>
          <p className="replay-note" role="status">
            <strong>{summary(result)}</strong> · left:{" "}
            {result.baseline === "previous"
              ? "the version before your last save"
              : "without this plugin"}{" "}
            · right: the saved code · {result.ms} ms, no model call
          </p>
          <div className="replay-diff">
            <DiffEditor
              onMount={(diff) => {
                // Bring the first change into view: the system prompt is long.
                diff.onDidUpdateDiff(() => {
                  const first = diff.getLineChanges()?.[0];
                  if (first)
                    diff
                      .getModifiedEditor()
                      .revealLineInCenter(Math.max(1, first.modifiedStartLineNumber));
                });
              }}
              // Fixed model paths, kept across runs and unmounts: the wrapper would otherwise dispose
              // them before the diff widget lets go of them (a page error on close).
              originalModelPath="inmemory://replay/before.md"
              modifiedModelPath="inmemory://replay/after.md"
              keepCurrentOriginalModel
              keepCurrentModifiedModel
              original={result.beforeText}
              modified={result.afterText}
              language="markdown"
              theme={themeFor(scheme)}
              options={{
                readOnly: true,
                renderSideBySide: true,
                // Always two columns: the inline fallback also turns off wrapping on the left.
                useInlineViewWhenSpaceIsLimited: false,
                // Read-only: no revert buttons (their toolbar also outlives the widget on close).
                renderGutterMenu: false,
                renderMarginRevertIcon: false,
                minimap: { enabled: false },
                wordWrap: "on",
                diffWordWrap: "on",
                scrollBeyondLastLine: false,
                automaticLayout: true,
                fontSize: 13,
                originalAriaLabel: "What the model received before",
                modifiedAriaLabel: "What the model receives with the saved code",
              }}
            />
          </div>
        </>
      ) : (
        <p className="replay-note">
          Runs this plugin's hooks on the chosen turn — once as it was before your last save, once
          as saved — and shows what the model would have received. Nothing is sent to the model.
        </p>
      )}
    </section>
  );
}
