/**
 * One tool call: its name and the gist of its arguments, live state, duration, the output
 * (truncated, with Show all) or error; and, while the approval policy asks, Allow / Deny /
 * Always allow here right in the card. The tool's name and arguments come from the model: their
 * control and invisible characters are shown as markers, and the approval shows the whole call.
 */
import { useEffect, useRef, useState } from "react";
import type { QuestionAnswer, QuestionAsked } from "../../../main/bridge/contract.ts";
import { visibleText } from "../../../main/core/visible-text.ts";
import { argumentsText, visibleQuestion } from "../../../main/host/visible-question.ts";
import { Marked, Shown } from "../ui/Shown.tsx";
import { ChangePreview } from "./ChangePreview.tsx";
import { ChevronIcon, ToolIcon } from "./chat-icons.tsx";
import { CopyButton } from "./CopyButton.tsx";
import { formatDuration } from "./format.ts";
import type { Item } from "./transcript.ts";
import type { Denial } from "../../../main/core/denial.ts";

type ToolItem = Extract<Item, { kind: "tool" }>;

const OUTPUT_PREVIEW = 1200;

const STATE_LABEL: Record<ToolItem["state"], string> = {
  running: "Running",
  done: "Done",
  error: "Failed",
  stopped: "Stopped",
  denied: "Not run",
};

/** A call that did not run for want of approval: who said no, in a word or two. */
const DENIED_LABEL: Record<Denial, string> = {
  user: "Denied by you",
  no_one: "No one to ask",
  rule: "Not allowed here",
  stopped: "Stopped",
};

function stateLabel(item: ToolItem): string {
  if (item.state === "denied") return DENIED_LABEL[item.denied ?? "rule"];
  const label = STATE_LABEL[item.state];
  return item.durationMs !== null ? `${label} · ${formatDuration(item.durationMs)}` : label;
}

export function ToolCard({
  item,
  approval,
  onAnswer,
}: {
  item: ToolItem;
  approval: QuestionAsked | null;
  onAnswer(answer: QuestionAnswer): void;
}) {
  const [open, setOpen] = useState(item.state === "error");
  const [all, setAll] = useState(false);
  const state = approval ? "waiting" : item.state;
  const output = item.output ?? "";
  const long = output.length > OUTPUT_PREVIEW;
  const bodyId = `tool-body-${item.id}`;
  return (
    <article className={`tool-card tool-${state}`} aria-label={`Tool ${item.name}`}>
      <button
        type="button"
        className="tool-head"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setOpen(!open)}
      >
        <span className={`tool-chevron${open ? " open" : ""}`}>
          <ChevronIcon />
        </span>
        <ToolIcon />
        <span className="tool-name">
          <Shown text={item.name} />
        </span>
        <span className="tool-gist">
          <Marked text={gist(item.arguments)} />
        </span>
        <span className={`tool-state tool-state-${state}`}>
          {state === "running" ? <span className="spinner spinner-sm" aria-hidden="true" /> : null}
          {state === "waiting" ? "Needs approval" : stateLabel(item)}
        </span>
      </button>
      {approval ? <ApprovalBar asked={approval} onAnswer={onAnswer} /> : null}
      {item.steps.length > 0 ? (
        <ol className="tool-steps" aria-label={`${item.agent ?? "Sub-agent"}'s steps`}>
          {item.steps.map((st) => (
            <li key={st.callId} className={`tool-step tool-step-${st.state}`}>
              <span className="tool-step-name">
                <Shown text={st.name} />
              </span>{" "}
              <span className="tool-gist">
                <Marked text={gist(st.arguments)} />
              </span>
              <span className="tool-step-state"> {STATE_LABEL[st.state]}</span>
            </li>
          ))}
        </ol>
      ) : null}
      {item.state === "running" && (item.live !== "" || item.liveDropped > 0) ? (
        <LiveOutput item={item} />
      ) : null}
      <div id={bodyId} className="tool-body" hidden={!open}>
        <p className="tool-label">Arguments</p>
        <pre className="tool-pre">
          <Shown text={JSON.stringify(item.arguments, null, 2)} lines />
        </pre>
        {item.output !== null ? (
          <>
            <div className="tool-label-row">
              <p className="tool-label">
                {item.state === "error" ? "Error" : item.state === "denied" ? "Why" : "Output"}
              </p>
              <CopyButton text={output} label={`Copy ${item.name} output`} />
            </div>
            <pre className={`tool-pre${item.state === "error" ? " tool-pre-error" : ""}`}>
              {long && !all ? `${output.slice(0, OUTPUT_PREVIEW)}…` : output || "(no output)"}
            </pre>
            {long ? (
              <button type="button" className="link-button" onClick={() => setAll(!all)}>
                {all ? "Show less" : `Show all (${output.length.toLocaleString()} characters)`}
              </button>
            ) : null}
          </>
        ) : null}
      </div>
      {!open && item.state === "error" && item.output ? (
        <p className="tool-error-line">{item.output.split("\n")[0]}</p>
      ) : null}
    </article>
  );
}

/**
 * What a running tool printed so far, newest at the bottom and kept in view: its last
 * OUTPUT_PREVIEW characters (Show all: what the card keeps), and how much was left out.
 */
function LiveOutput({ item }: { item: ToolItem }) {
  const [all, setAll] = useState(false);
  const pre = useRef<HTMLPreElement>(null);
  const pinned = useRef(true);
  const long = item.live.length > OUTPUT_PREVIEW;
  const shown = long && !all ? fromLineStart(item.live.slice(-OUTPUT_PREVIEW)) : item.live;
  const hidden = item.liveDropped + (item.live.length - shown.length);
  // Follows the output unless the person scrolled up to read something.
  useEffect(() => {
    const el = pre.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [shown]);
  return (
    <div className="tool-live">
      <div className="tool-label-row">
        <p className="tool-label">Live output</p>
        {long ? (
          <button type="button" className="link-button" onClick={() => setAll(!all)}>
            {all ? "Show less" : "Show all"}
          </button>
        ) : null}
      </div>
      {hidden > 0 ? (
        <p className="tool-live-note">
          {`… ${hidden.toLocaleString()} earlier characters not shown here; the result will have the output`}
        </p>
      ) : null}
      <pre
        ref={pre}
        className="tool-pre tool-live-pre"
        aria-label={`${item.name} output so far`}
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 8;
        }}
      >
        {shown}
      </pre>
    </div>
  );
}

export function ApprovalBar({
  asked,
  onAnswer,
}: {
  asked: QuestionAsked;
  onAnswer(answer: QuestionAnswer): void;
}) {
  const first = useRef<HTMLButtonElement>(null);
  // Focus moves to the question so it can be answered from the keyboard at once.
  useEffect(() => first.current?.focus(), [asked.id]);
  const q = visibleQuestion(asked.question);
  if (q.kind !== "approval") return null;
  const reply = (answer: "allow" | "deny" | "always") =>
    onAnswer({ id: asked.id, kind: "approval", answer });
  return (
    <div className="approval" role="group" aria-label={`Allow ${q.tool}?`}>
      <p className="approval-text">
        Allow{" "}
        <strong>
          <Marked text={q.tool} />
        </strong>{" "}
        to run?
        {q.rewrittenBy?.length ? (
          <span className="approval-note">
            {" "}
            Rewritten by plugin <Marked text={q.rewrittenBy.join(", ")} />.
          </span>
        ) : null}
      </p>
      {q.changed?.map((line) => (
        <p key={line} className="approval-note">
          <Marked text={line} />
        </p>
      ))}
      {q.change ? (
        <ChangePreview
          change={q.change}
          content={typeof q.arguments.content === "string" ? q.arguments.content : null}
        />
      ) : (
        <pre className="tool-pre approval-args">
          <Marked text={argumentsText(q.arguments)} />
        </pre>
      )}
      <div className="approval-buttons">
        <button
          ref={first}
          type="button"
          className="button button-primary"
          onClick={() => reply("allow")}
        >
          Allow
        </button>
        <button type="button" className="button" onClick={() => reply("deny")}>
          Deny
        </button>
        {q.rewrittenBy?.length ? null : (
          <button type="button" className="button" onClick={() => reply("always")}>
            Always allow here
          </button>
        )}
      </div>
    </div>
  );
}

/** A tail of some output, starting at its first whole line (when it has more than one). */
function fromLineStart(tail: string): string {
  const cut = tail.indexOf("\n");
  return cut >= 0 && cut < tail.length - 1 ? tail.slice(cut + 1) : tail;
}

/**
 * The one argument a person looks for first (command, path, pattern…), else a short JSON; made
 * visible after it is cut, so no marker is cut in half.
 */
function gist(args: Record<string, unknown>): string {
  if (Array.isArray(args.todos)) return `${args.todos.length} items`;
  const short = (text: string) =>
    text.length > 80
      ? `${visibleText(Array.from(text).slice(0, 79).join(""))}…`
      : visibleText(text);
  for (const key of ["command", "path", "file_path", "pattern", "url", "query"]) {
    const v = args[key];
    if (typeof v === "string") return short(v);
  }
  const json = JSON.stringify(args);
  return json === "{}" ? "" : short(json);
}
