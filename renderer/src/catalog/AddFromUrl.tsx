/** Install any pack: a git URL (https, ssh, git://, file://), owner/repo on GitHub, or a folder. */
import { useState, type FormEvent } from "react";
import { OperationStatus } from "./OperationStatus.tsx";
import type { PackOperations } from "./usePackOperations.ts";

export const URL_KEY = "add-from-url";

export function AddFromUrl({ operations }: { operations: PackOperations }) {
  const [source, setSource] = useState("");
  const [ref, setRef] = useState("");
  const [workspace, setWorkspace] = useState(false);
  const op = operations.ops[URL_KEY];
  const busy = op?.running === true;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (source.trim() === "" || busy) return;
    const done = await operations.install(URL_KEY, {
      source: source.trim(),
      ...(ref.trim() ? { ref: ref.trim() } : {}),
      scope: workspace ? "project" : "global",
    });
    if (done) {
      setSource("");
      setRef("");
    }
  };
  return (
    <section className="add-url" aria-labelledby="add-url-title">
      <form className="add-url-form" onSubmit={(e) => void submit(e)}>
        <div className="add-url-text">
          <h2 id="add-url-title">Add from URL</h2>
          <p className="settings-hint">
            Any git repository of Islet or Claude Code plugins: <code>https://…</code>,{" "}
            <code>git@host:repo</code> or <code>owner/repo</code> on GitHub.
          </p>
        </div>
        <div className="add-url-fields">
          <label className="visually-hidden" htmlFor="add-url-source">
            Git URL or owner/repo
          </label>
          <input
            id="add-url-source"
            className="input add-url-source"
            placeholder="https://github.com/owner/repo or owner/repo"
            value={source}
            onChange={(e) => setSource(e.target.value)}
            spellCheck={false}
            autoComplete="off"
            disabled={busy}
          />
          <label className="visually-hidden" htmlFor="add-url-ref">
            Branch or tag (optional)
          </label>
          <input
            id="add-url-ref"
            className="input add-url-ref"
            placeholder="Branch or tag"
            value={ref}
            onChange={(e) => setRef(e.target.value)}
            spellCheck={false}
            autoComplete="off"
            disabled={busy}
          />
          <button
            type="submit"
            className="button button-primary"
            disabled={busy || source.trim() === ""}
          >
            {busy ? "Installing…" : "Install"}
          </button>
        </div>
        <label className="check add-url-scope">
          <input
            type="checkbox"
            checked={workspace}
            onChange={(e) => setWorkspace(e.target.checked)}
            disabled={busy}
          />
          <span>
            This workspace only (its <code>.islet/plugins</code>)
          </span>
        </label>
      </form>
      <OperationStatus
        op={op}
        name={source || "the pack"}
        onDismiss={() => operations.dismiss(URL_KEY)}
      />
    </section>
  );
}
