/**
 * Where the person writes: Enter sends, Shift+Enter starts a new line. Typing "/" opens the
 * slash-command list (built-in, custom and plugin commands and skills with their hints; a command whose plugin
 * failed is shown as such): arrows move, Tab or Enter picks, Escape closes until the next key that
 * still matches (or Ctrl+Space). The text box keeps its own role (a textarea may not be a
 * combobox): a combobox container holds it and the list, which it points at with aria-controls
 * and aria-activedescendant.
 * While a turn runs, Send becomes Stop.
 */
import { useEffect, useId, useMemo, useState, type KeyboardEvent, type RefObject } from "react";
import type { CommandEntry } from "../../../main/bridge/contract.ts";
import { useBridgeQuery } from "../bridge/hooks.ts";
import { SendIcon, StopIcon } from "./chat-icons.tsx";
import "./composer.css";

/** The message box's id: the skip link's target. */
export const COMPOSER_ID = "message-box";

export function Composer({
  running,
  stopping,
  disabled,
  onSend,
  onStop,
  inputRef,
  preset = null,
}: {
  /** The text box, so the chat can give it the focus back (e.g. after an approval). */
  inputRef: RefObject<HTMLTextAreaElement | null>;
  running: boolean;
  stopping: boolean;
  /** No engine to talk to (e.g. the session failed to open). */
  disabled: boolean;
  onSend(text: string): void;
  onStop(): void;
  /** Text put in the box for the person to edit or send (a starter prompt); a new object each time. */
  preset?: { text: string } | null;
}) {
  const [text, setText] = useState("");
  const [active, setActive] = useState(0);
  // Escape hides the list until a key changes what is typed (or Ctrl+Space asks for it).
  const [dismissed, setDismissed] = useState(false);
  const input = inputRef;
  useEffect(() => {
    if (!preset) return;
    setText(preset.text);
    const box = input.current;
    if (box) {
      box.focus();
      // The caret after the text, ready to add to it.
      requestAnimationFrame(() => box.setSelectionRange(box.value.length, box.value.length));
    }
  }, [preset, input]);
  const listId = useId();
  const commands = useBridgeQuery("commands/list", undefined, { refreshOn: ["plugins/changed"] });

  const query = /^\/([\w:.-]*)$/.exec(text)?.[1];
  const matches = useMemo(
    () => (query === undefined ? [] : matching(commands.data?.commands ?? [], query)),
    [commands.data, query],
  );
  const open = matches.length > 0 && !dismissed;
  const current = open ? matches[Math.min(active, matches.length - 1)] : undefined;
  const hint = hintFor(text, commands.data?.commands ?? []);
  const activeId = current ? `${listId}-${matches.indexOf(current)}` : undefined;
  // Arrows move past the list's visible part: keep the chosen command on screen.
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: "nearest" });
  }, [activeId]);

  const pick = (command: CommandEntry) => {
    setText(`/${command.name} `);
    setActive(0);
    input.current?.focus();
  };
  const send = () => {
    const prompt = text.trim();
    if (prompt === "" || running || disabled) return;
    onSend(prompt);
    setText("");
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === " " && e.ctrlKey) {
      e.preventDefault();
      setDismissed(false);
      return;
    }
    if (open && current) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        const step = e.key === "ArrowDown" ? 1 : -1;
        setActive(
          (i) => (Math.min(i, matches.length - 1) + step + matches.length) % matches.length,
        );
        return;
      }
      // Enter on a command typed out in full sends it; otherwise Enter, like Tab, completes.
      const complete = e.key === "Enter" && query === current.name;
      if (e.key === "Tab" || (e.key === "Enter" && !e.shiftKey && !complete)) {
        e.preventDefault();
        pick(current);
        return;
      }
      if (e.key === "Escape") {
        e.preventDefault();
        setDismissed(true);
        return;
      }
    }
    if (e.key === "Escape" && running) {
      e.preventDefault();
      onStop();
      return;
    }
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      {/* ARIA 1.1's combobox: a container holding the text box and the list it pops up, since a
          textarea may not itself be a combobox. */}
      <div
        className="composer-combo"
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-haspopup="listbox"
        aria-labelledby={`${COMPOSER_ID}-label`}
      >
        {open ? (
          <ul id={listId} className="command-menu" role="listbox" aria-label="Slash commands">
            {matches.map((c, i) => (
              <li
                key={c.name}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={c === current}
                aria-disabled={c.status !== "ok" || undefined}
                className={`command-option${c === current ? " active" : ""}${c.status !== "ok" ? " failed" : ""}`}
                onMouseDown={(e) => {
                  e.preventDefault(); // keep the focus in the textarea
                  pick(c);
                }}
                onMouseEnter={() => setActive(i)}
              >
                <span className="command-option-name">
                  /{c.name}
                  {c.hints ? <span className="command-option-hints"> {c.hints}</span> : null}
                </span>
                <span className="command-option-desc">
                  {c.status === "failed" ? `failed to load: ${c.error ?? ""}` : c.description}
                </span>
                <span className={`command-option-source${c.status !== "ok" ? " failed" : ""}`}>
                  {c.kind === "skill" ? "skill · " : ""}
                  {c.source === "builtin" ? "built-in" : c.source}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
        <span className="visually-hidden" role="status">
          {open
            ? `${matches.length} command${matches.length === 1 ? "" : "s"}: arrows to choose, Tab to pick`
            : ""}
        </span>
        <div className="composer-box">
          <label id={`${COMPOSER_ID}-label`} htmlFor={COMPOSER_ID} className="visually-hidden">
            Message
          </label>
          <textarea
            id={COMPOSER_ID}
            ref={input}
            className="composer-input"
            rows={1}
            placeholder={running ? "The agent is working…" : "Message the agent — / for commands"}
            value={text}
            disabled={disabled}
            aria-autocomplete="list"
            aria-controls={open ? listId : undefined}
            aria-activedescendant={activeId}
            aria-describedby={hint ? `${listId}-hint` : undefined}
            onChange={(e) => {
              setText(e.target.value);
              setActive(0);
              setDismissed(false);
            }}
            onKeyDown={onKeyDown}
          />
          <div className="composer-bar">
            <span id={`${listId}-hint`} className="composer-hint">
              {hint ?? (
                <>
                  <kbd>Enter</kbd> to send · <kbd>Shift</kbd>+<kbd>Enter</kbd> for a new line
                  {running ? (
                    <>
                      {" "}
                      · <kbd>Esc</kbd> to stop
                    </>
                  ) : null}
                </>
              )}
            </span>
            {running ? (
              <button
                type="button"
                className="composer-send composer-stop"
                onClick={onStop}
                disabled={stopping}
                aria-label={stopping ? "Stopping" : "Stop"}
                title="Stop the turn"
              >
                <StopIcon />
              </button>
            ) : (
              <button
                type="submit"
                className="composer-send"
                disabled={disabled || text.trim() === ""}
                aria-label="Send"
                title="Send (Enter)"
              >
                <SendIcon />
              </button>
            )}
          </div>
        </div>
      </div>
    </form>
  );
}

/** Names starting with the query first, then names containing it. */
function matching(commands: CommandEntry[], query: string): CommandEntry[] {
  const q = query.toLowerCase();
  const starts = commands.filter((c) => c.name.toLowerCase().startsWith(q));
  const contains = commands.filter((c) => !starts.includes(c) && c.name.toLowerCase().includes(q));
  return [...starts, ...contains];
}

/** "/deploy " with nothing after it yet: the command's hints as a reminder of what comes next. */
function hintFor(text: string, commands: CommandEntry[]): string | null {
  const m = /^\/([\w:.-]+) $/.exec(text);
  const command = m && commands.find((c) => c.name === m[1]);
  if (!command) return null;
  if (command.status === "failed")
    return `/${command.name} comes from ${command.source}, which failed to load`;
  if (command.status === "held-back") return command.error;
  return command.hints ? `/${command.name} ${command.hints}` : null;
}
