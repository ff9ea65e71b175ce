/**
 * The Models screen's "Add a model file…" and "Download from a URL…": a form each, one open at a
 * time. A file is named by its full path (the desktop app's Choose… opens its file dialog; a page
 * served by `islet serve` cannot hand the engine a path, so it is typed or pasted), which the
 * engine checks before taking it. A URL download then runs like
 * a catalog one, listed under "From URLs" with its progress, Cancel, Resume or Retry.
 */
import { useState, type FormEvent } from "react";
import { useBridge } from "../bridge/context.tsx";
import { BridgeError } from "../../../main/bridge/contract.ts";
import { errorMessage, useBridgeQuery } from "../bridge/hooks.ts";
import { DownloadIcon, PlusIcon } from "../ui/more-icons.tsx";
import { DownloadButton } from "./DownloadButton.tsx";
import { DownloadProgress } from "./DownloadProgress.tsx";
import type { ModelDownload } from "./useLocalModels.ts";

type Mode = "file" | "url";

/** The engine's sentence, without the call's name in front (the person did not make a call). */
const words = (err: unknown) =>
  err instanceof BridgeError ? err.problem.title : errorMessage(err);

const FORMS: Record<Mode, { label: string; placeholder: string; submit: string; busy: string }> = {
  file: {
    label: "Full path of a .gguf file on this computer",
    placeholder: "/home/me/Downloads/model.Q4_K_M.gguf",
    submit: "Add",
    busy: "Adding…",
  },
  url: {
    label: "Web address (http or https) of a .gguf file",
    placeholder: "https://example.com/model.Q4_K_M.gguf",
    submit: "Download",
    busy: "Starting…",
  },
};

/** Checked here too, so a typo is caught at once; the engine refuses anything else anyway. */
function urlProblem(text: string): string | null {
  if (!URL.canParse(text)) return "That is not a web address: it starts with https:// or http://.";
  const scheme = new URL(text).protocol;
  return scheme === "http:" || scheme === "https:"
    ? null
    : `Only web addresses (http or https) can be downloaded, not ${scheme}`;
}

export function AddModel() {
  const bridge = useBridge();
  // The desktop app opens its own file dialog; a browser page can only be given a typed path.
  const desktop = useBridgeQuery("app/info", undefined).data?.host === "desktop";
  const [mode, setMode] = useState<Mode | null>(null);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const open = (next: Mode) => {
    setMode(mode === next ? null : next);
    setText("");
    setFailure(null);
    setAdded(null);
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = text.trim();
    if (!mode || value === "") return;
    const problem = mode === "url" ? urlProblem(value) : null;
    if (problem) return setFailure(problem);
    setBusy(true);
    setFailure(null);
    try {
      if (mode === "file") {
        const { name } = await bridge.call("models/addFile", { path: value });
        setAdded(`Added ${name}.`);
      } else await bridge.call("models/download", { name: value });
      setText("");
      if (mode === "url") setMode(null);
    } catch (err) {
      setFailure(words(err));
    } finally {
      setBusy(false);
    }
  };
  const choose = async () => {
    setFailure(null);
    try {
      const { path } = await bridge.call("models/pickFile");
      if (path) setText(path);
    } catch (err) {
      setFailure(words(err));
    }
  };
  const form = mode ? FORMS[mode] : null;
  return (
    <div className="add-model">
      <div className="toolbar">
        <button
          type="button"
          className="button"
          aria-expanded={mode === "file"}
          onClick={() => open("file")}
        >
          <PlusIcon /> Add a model file…
        </button>
        <button
          type="button"
          className="button"
          aria-expanded={mode === "url"}
          onClick={() => open("url")}
        >
          <DownloadIcon /> Download from a URL…
        </button>
      </div>
      {mode && form ? (
        <form className="add-model-form" aria-label={form.label} onSubmit={(e) => void submit(e)}>
          <label htmlFor="add-model-input">{form.label}</label>
          <div className="add-model-row">
            <input
              id="add-model-input"
              className="input"
              placeholder={form.placeholder}
              value={text}
              spellCheck={false}
              autoComplete="off"
              autoFocus
              onChange={(e) => setText(e.target.value)}
            />
            {mode === "file" && desktop ? (
              <button type="button" className="button" onClick={() => void choose()}>
                Choose…
              </button>
            ) : null}
            <button
              type="submit"
              className="button button-primary"
              disabled={busy || text.trim() === ""}
            >
              {busy ? form.busy : form.submit}
            </button>
            <button type="button" className="button" onClick={() => setMode(null)}>
              Cancel
            </button>
          </div>
          {mode === "file" ? (
            <p className="muted add-model-hint">
              The file must be a GGUF model you can read; it is linked into the models folder (or
              copied where it cannot be linked).
            </p>
          ) : null}
        </form>
      ) : null}
      {failure ? (
        <p className="form-error" role="alert">
          {failure}
        </p>
      ) : null}
      {added ? (
        <p className="model-done" role="status">
          {added}
        </p>
      ) : null}
    </div>
  );
}

/** Downloads started from a URL (not in the catalog): progress, Cancel, Resume or Retry. */
export function UrlDownloads({ downloads }: { downloads: ModelDownload[] }) {
  const bridge = useBridge();
  const [failure, setFailure] = useState<string | null>(null);
  if (downloads.length === 0) return null;
  return (
    <section aria-labelledby="models-urls">
      <h2 id="models-urls" className="models-heading">
        From URLs
      </h2>
      {failure ? (
        <p className="form-error" role="alert">
          {failure}
        </p>
      ) : null}
      <ul className="model-grid">
        {downloads.map((d) => (
          <li key={d.name} className="model-card">
            <div className="model-head">
              <h3 className="model-name">{d.name}</h3>
            </div>
            <p className="model-facts url-source">{d.source}</p>
            {d.state === "running" ? (
              <DownloadProgress download={d} label={d.name} />
            ) : (
              <div className="model-foot">
                <span className="model-actions">
                  <DownloadButton
                    download={d}
                    label="Download"
                    small
                    onStart={() =>
                      void bridge
                        .call("models/download", { name: d.source })
                        .catch((err: unknown) => setFailure(words(err)))
                    }
                  />
                </span>
              </div>
            )}
            {d.state === "failed" && d.error ? (
              <p className="model-error" role="alert">
                {d.error}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
