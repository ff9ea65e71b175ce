/**
 * An install link (`islet://install?…` in the app, `/install?…` on `islet serve`, which hands it
 * over in the page's `#install?…`): the engine checks it (`packs/checkLink`), and this dialog says
 * a link opened Islet and shows exactly what it asks for. Nothing is fetched until the person
 * chooses Download and review; then the install runs as Add from URL's does, and the pack's own
 * consent question (which lists every permission) decides. A refused link is one line.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { CallResponse } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage, useBridgeEvent } from "../bridge/hooks.ts";
import { OperationStatus } from "./OperationStatus.tsx";
import { usePackOperations } from "./usePackOperations.ts";
import "../questions/questions.css";

export const LINK_KEY = "install-link";
const FRAGMENT = "#install?";

type InstallLinkView = NonNullable<CallResponse<"packs/checkLink">["link"]>;
type Opened = { link: InstallLinkView } | { refused: string };

/** The link in the page's fragment, once: it is removed so a reload does not ask again. */
function takeFragment(): string | null {
  const { hash, pathname, search } = window.location;
  if (!hash.startsWith(FRAGMENT)) return null;
  window.history.replaceState(null, "", pathname + search);
  return hash.slice(FRAGMENT.length);
}

export function InstallLinkDialog({ onShowPlugins }: { onShowPlugins(): void }) {
  const bridge = useBridge();
  const operations = usePackOperations();
  const [opened, setOpened] = useState<Opened | null>(null);
  const [workspace, setWorkspace] = useState(false);
  const ref = useRef<HTMLDialogElement>(null);
  const op = operations.ops[LINK_KEY];
  const running = op?.running === true;
  const { dismiss } = operations;

  // A second link while one is shown is dropped: a page firing links could otherwise swap what
  // the dialog shows just before the person's click.
  const showing = useRef(false);
  const check = useCallback(
    async (query: string) => {
      if (showing.current) return;
      showing.current = true;
      let next: Opened;
      try {
        const r = await bridge.call("packs/checkLink", { query });
        next = r.link ? { link: r.link } : { refused: r.refused ?? "the link was refused" };
      } catch (err) {
        next = { refused: errorMessage(err) };
      }
      dismiss(LINK_KEY);
      setWorkspace(false);
      setOpened(next);
    },
    [bridge, dismiss],
  );

  // At load, and when only the fragment changed (the same page's address with a link in it).
  useEffect(() => {
    const take = () => {
      const query = takeFragment();
      if (query !== null) void check(query);
    };
    take();
    window.addEventListener("hashchange", take);
    return () => window.removeEventListener("hashchange", take);
  }, [check]);
  useBridgeEvent("app/installLink", ({ query }) => void check(query));

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (opened && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLButtonElement>("[data-default]")?.focus();
    }
    if (!opened && dialog.open) dialog.close();
  }, [opened]);

  const close = () => {
    if (running) return;
    showing.current = false;
    setOpened(null);
    dismiss(LINK_KEY);
  };
  const install = (link: InstallLinkView) =>
    void operations.install(LINK_KEY, {
      source: link.source,
      ...(link.ref ? { ref: link.ref } : {}),
      ...(link.subpath ? { subpath: link.subpath } : {}),
      scope: workspace ? "project" : "global",
      via: "link",
    });
  const link = opened && "link" in opened ? opened.link : null;
  const started = op !== undefined;
  const done = op?.note?.tone === "ok" || op?.note?.tone === "warn";

  return (
    <dialog
      ref={ref}
      className="question-dialog question-dialog-pack link-dialog"
      aria-labelledby="link-title"
      aria-describedby="link-message"
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
    >
      {opened && "refused" in opened ? (
        <>
          <h2 id="link-title">This link was not opened</h2>
          <p id="link-message" className="consent-lead">
            A link opened Islet, but Islet does not install from it. Nothing was downloaded or
            installed.
          </p>
          <p className="link-refused" role="alert">
            {opened.refused}
          </p>
          <div className="question-buttons">
            <button type="button" className="button" data-default="" onClick={close}>
              Close
            </button>
          </div>
        </>
      ) : link ? (
        <>
          <h2 id="link-title">Install plugins from a link?</h2>
          <p id="link-message" className="consent-lead">
            A link opened Islet and asks to install the plugins in this git repository. Install only
            if you trust where the link came from.
          </p>
          <dl className="link-facts" aria-label="What the link asks to install">
            <dt>Source</dt>
            <dd className="path">{link.source}</dd>
            <dt>Branch or tag</dt>
            <dd className={link.ref ? "path" : "muted"}>{link.ref ?? "the default branch"}</dd>
            <dt>Folder</dt>
            <dd className={link.subpath ? "path" : "muted"}>
              {link.subpath ?? "the whole repository"}
            </dd>
          </dl>
          {started ? (
            <OperationStatus op={op} name={link.source} onDismiss={() => dismiss(LINK_KEY)} />
          ) : (
            <>
              <label className="check link-scope">
                <input
                  type="checkbox"
                  checked={workspace}
                  onChange={(e) => setWorkspace(e.target.checked)}
                />
                <span>
                  This workspace only (its <code>.islet/plugins</code>)
                </span>
              </label>
              <p className="settings-hint">
                Nothing has been downloaded yet. Download and review fetches it and shows each
                plugin and everything it asks for; nothing is installed until you accept that.
              </p>
            </>
          )}
          <div className="question-buttons">
            {done ? (
              <button
                type="button"
                className="button"
                onClick={() => {
                  close();
                  onShowPlugins();
                }}
              >
                Show plugins
              </button>
            ) : null}
            <button
              type="button"
              className="button"
              data-default=""
              disabled={running}
              onClick={close}
            >
              {started ? "Close" : "Cancel"}
            </button>
            {started ? null : (
              <button type="button" className="button button-primary" onClick={() => install(link)}>
                Download and review
              </button>
            )}
          </div>
        </>
      ) : null}
    </dialog>
  );
}
