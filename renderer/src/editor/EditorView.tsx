/**
 * The plugin editor: plugins and their files on the left, Monaco with tabs in
 * the middle, problems / log / settings below. Save (Ctrl/Cmd+S) writes the file; the engine's hot
 * reload answers with its time or the error, which is marked at its line while the previous
 * version keeps serving. "Try on a recorded turn" replays the edit (ReplayPanel).
 */
import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from "react";
import type { PluginEntry } from "../../../main/bridge/contract.ts";
import type { Problem } from "../../../main/host/problem.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage, useBridgeEvent } from "../bridge/hooks.ts";
import { BottomPanel, EmptyBottomPanel } from "./BottomPanel.tsx";
import { CodeEditor, disposeModel, revealLater, useMarkers } from "./CodeEditor.tsx";
import { useUnsavedPrompt } from "./ConfirmDialog.tsx";
import { EditorTabs } from "./EditorTabs.tsx";
import { FileTree } from "./FileTree.tsx";
import { NewPluginDialog } from "./NewPluginDialog.tsx";
import { PluginPicker } from "./PluginPicker.tsx";
import { ReplayPanel } from "./ReplayPanel.tsx";
import { StatusLine, statusOf, type Status } from "./StatusLine.tsx";
import { EditorHeader } from "./EditorHeader.tsx";
import { FileActions } from "./FileActions.tsx";
import { useOpenFiles, type SaveOutcome } from "./useOpenFiles.ts";
import { usePluginFiles } from "./usePluginFiles.ts";
import "./editor.css";

/** Asked before the app leaves the editor: resolves false to stay. */
export type LeaveGuard = () => Promise<boolean>;

export default function EditorView({
  plugins,
  plugin,
  onPluginChange,
  leaveGuard,
}: {
  plugins: PluginEntry[];
  plugin: string | null;
  onPluginChange(name: string | null): void;
  leaveGuard: RefObject<LeaveGuard | null>;
}) {
  const bridge = useBridge();
  const files = usePluginFiles(plugin);
  const open = useOpenFiles(plugin);
  const prompt = useUnsavedPrompt();
  const [status, setStatus] = useState<Status | null>(null);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [creating, setCreating] = useState(false);
  const [replaying, setReplaying] = useState(false);
  const entry = plugins.find((p) => p.name === plugin) ?? null;
  // The switch moves at once; the plugin list catches up after the reload.
  const [wantEnabled, setWantEnabled] = useState<boolean | null>(null);
  const isEnabled = entry ? entry.status !== "disabled" : false;
  useEffect(() => {
    setWantEnabled(null);
  }, [isEnabled, plugin]);

  // The engine's view of what is wrong wins whenever it answers (after every reload).
  useEffect(() => {
    setProblems(files.data?.problems ?? []);
  }, [files.data]);
  // A fault in a turn is logged as an error: fetch the problems again to mark it in the code.
  useBridgeEvent("plugins/log", (e) => {
    if (e.name === plugin && e.line.level === "error") files.refresh();
  });
  useMarkers(
    plugin ?? "",
    open.files.map((f) => f.path),
    problems,
  );

  // Opening a plugin shows its entry module.
  const entryFile = files.data?.entry ?? null;
  const latestOpen = useRef(open);
  useEffect(() => {
    latestOpen.current = open;
  });
  useEffect(() => {
    // Only when the plugin (and so its entry) changes, not on every edit.
    if (entryFile && latestOpen.current.files.length === 0) void latestOpen.current.open(entryFile);
  }, [entryFile]);

  const saveOne = useCallback(
    async (path: string): Promise<SaveOutcome | null> => {
      setStatus({ tone: "busy", text: `Saving ${path}…` });
      try {
        const outcome = await open.save(path);
        setProblems(outcome.problems);
        setStatus(statusOf(outcome));
        return outcome;
      } catch (err) {
        setStatus({ tone: "bad", text: errorMessage(err) });
        return null;
      }
    },
    [open],
  );

  /** Resolves true when nothing unsaved is left (saved or discarded), false to stay. */
  const settleUnsaved = useCallback(
    async (what: string): Promise<boolean> => {
      if (open.dirty.length === 0) return true;
      const names = open.dirty.map((f) => f.path).join(", ");
      const choice = await prompt.ask(
        `Save changes before ${what}?`,
        `Unsaved changes in ${plugin}: ${names}.`,
      );
      if (choice === "cancel") return false;
      if (choice === "save") for (const f of open.dirty) if (!(await saveOne(f.path))) return false;
      return true;
    },
    [open.dirty, plugin, prompt, saveOne],
  );

  useEffect(() => {
    leaveGuard.current = () => settleUnsaved("leaving the editor");
    return () => {
      leaveGuard.current = null;
    };
  }, [leaveGuard, settleUnsaved]);

  useEffect(() => {
    if (open.dirty.length === 0) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [open.dirty.length]);

  // Ctrl/Cmd+S anywhere in the editor view (capture: before Monaco sees it).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "s") {
        e.preventDefault();
        if (open.active) void saveOne(open.active);
      }
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [open.active, saveOne]);

  const switchPlugin = async (name: string) => {
    if (name === plugin) return;
    if (!(await settleUnsaved(`opening ${name}`))) return;
    for (const f of open.files) disposeModel(plugin ?? "", f.path);
    open.closeAll();
    setReplaying(false);
    setStatus(null);
    onPluginChange(name);
  };

  const closeTab = async (path: string) => {
    const file = open.files.find((f) => f.path === path);
    if (file && file.text !== file.saved) {
      const choice = await prompt.ask(
        `Save changes to ${path}?`,
        "Your changes are lost if you close it without saving.",
      );
      if (choice === "cancel") return;
      if (choice === "save" && !(await saveOne(path))) return;
    }
    disposeModel(plugin ?? "", path);
    open.close(path);
  };

  const fileAction = async (run: () => Promise<SaveOutcome>, done: string): Promise<void> => {
    try {
      const outcome = await run();
      setProblems(outcome.problems);
      setStatus({ ...statusOf(outcome), text: `${done}. ${statusOf(outcome).text}` });
      files.refresh();
    } catch (err) {
      setStatus({ tone: "bad", text: errorMessage(err) });
    }
  };

  const toggleEnabled = async () => {
    if (!entry) return;
    const enabled = !(wantEnabled ?? isEnabled);
    setWantEnabled(enabled);
    await fileAction(
      () => bridge.call("plugins/setEnabled", { name: entry.name, enabled }),
      enabled ? `Enabled ${entry.name}` : `Disabled ${entry.name}`,
    );
  };

  const dirtySet = useMemo(() => new Set(open.dirty.map((f) => f.path)), [open.dirty]);
  const problemFiles = useMemo(
    () => new Set(problems.flatMap((p) => (p.file ? [p.file] : []))),
    [problems],
  );
  const activeFile = open.files.find((f) => f.path === open.active) ?? null;

  return (
    <section className="view editor-view" aria-labelledby="editor-title">
      <EditorHeader
        entry={entry}
        enabled={wantEnabled ?? isEnabled}
        onToggleEnabled={() => void toggleEnabled()}
        onNewPlugin={() => setCreating(true)}
        replaying={replaying}
        onToggleReplay={() => setReplaying((r) => !r)}
        canSave={activeFile !== null && activeFile.text !== activeFile.saved}
        onSave={() => activeFile && void saveOne(activeFile.path)}
      />

      <div className="editor-layout">
        <aside className="editor-side" aria-label="Plugins and files">
          <PluginPicker plugins={plugins} active={plugin} onPick={(n) => void switchPlugin(n)} />
          {plugin ? (
            <div className="side-section">
              <h2 className="side-title">Files</h2>
              {files.error ? <p className="side-empty error-text">{files.error}</p> : null}
              {files.data ? (
                <FileTree
                  paths={files.data.files.map((f) => f.path)}
                  active={open.active}
                  dirty={dirtySet}
                  problemFiles={problemFiles}
                  onOpen={(p) =>
                    void open
                      .open(p)
                      .catch((e: unknown) => setStatus({ tone: "bad", text: errorMessage(e) }))
                  }
                />
              ) : null}
              <FileActions
                active={open.active}
                onCreate={(path) =>
                  fileAction(async () => {
                    const out = await bridge.call("editor/create", {
                      name: plugin,
                      path,
                      content: "",
                    });
                    void open.open(path);
                    return out;
                  }, `Created ${path}`)
                }
                onRename={(to) =>
                  open.active
                    ? fileAction(async () => {
                        const from = open.active!;
                        const out = await bridge.call("editor/rename", { name: plugin, from, to });
                        disposeModel(plugin, from);
                        open.drop(from);
                        void open.open(to);
                        return out;
                      }, `Renamed to ${to}`)
                    : Promise.resolve()
                }
                onDelete={async () => {
                  const target = open.active;
                  if (!target) return;
                  const sure = await prompt.ask(
                    `Delete ${target}?`,
                    "The file is removed from the plugin folder; this cannot be undone.",
                    { save: null, discard: "Delete" },
                  );
                  if (sure !== "discard") return;
                  await fileAction(async () => {
                    const out = await bridge.call("editor/delete", { name: plugin, path: target });
                    disposeModel(plugin, target);
                    open.drop(target);
                    return out;
                  }, `Deleted ${target}`);
                }}
              />
            </div>
          ) : null}
        </aside>

        <div className="editor-main">
          {replaying && plugin ? (
            <ReplayPanel plugin={plugin} onClose={() => setReplaying(false)} />
          ) : (
            <>
              <EditorTabs
                files={open.files}
                active={open.active}
                onSelect={open.select}
                onClose={(p) => void closeTab(p)}
              />
              <div className="editor-code">
                {plugin && activeFile ? (
                  <CodeEditor
                    key={`${plugin}/${activeFile.path}`}
                    plugin={plugin}
                    path={activeFile.path}
                    text={activeFile.text}
                    onChange={(t) => open.edit(activeFile.path, t)}
                  />
                ) : (
                  <div className="editor-empty">
                    <p className="editor-empty-title">{plugin ? "Open a file" : "Pick a plugin"}</p>
                    <p>
                      {plugin
                        ? "Choose a file on the left. Saving reloads the plugin; the next turn uses it."
                        : "Choose a plugin on the left, or start one from a template with New plugin."}
                    </p>
                  </div>
                )}
              </div>
            </>
          )}
          <StatusLine status={status} dirty={open.dirty.length} />
          {plugin && !replaying ? (
            <BottomPanel
              plugin={plugin}
              problems={problems}
              onOpenProblem={(p) => {
                if (!p.file) return;
                void open.open(p.file).then(() => revealLater(plugin, p));
              }}
              onConfigSaved={(ms) =>
                setStatus({
                  tone: "ok",
                  text:
                    ms === null
                      ? "Settings saved"
                      : `Settings saved; reloaded in ${Math.round(ms)} ms`,
                })
              }
            />
          ) : !replaying ? (
            <EmptyBottomPanel />
          ) : null}
        </div>
      </div>
      {creating ? (
        <NewPluginDialog
          onClose={() => setCreating(false)}
          onCreated={(name, entryPath, ms) => {
            setCreating(false);
            void switchPlugin(name).then(() => {
              setStatus({
                tone: "ok",
                text: `Created ${name}${ms === null ? "" : `; loaded in ${Math.round(ms)} ms`}`,
              });
              void open.open(entryPath);
            });
          }}
        />
      ) : null}
      {prompt.dialog}
    </section>
  );
}
