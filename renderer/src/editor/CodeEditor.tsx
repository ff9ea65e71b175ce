/**
 * Monaco on one open file of a plugin (a model per file, so each keeps its undo history and
 * view state), with the plugin's problems as markers at their lines.
 */
import { Editor } from "@monaco-editor/react";
import { useEffect } from "react";
import type { Problem } from "../../../main/host/problem.ts";
import { fileUri, languageOf, monaco } from "./monaco-setup.ts";
import { useColorScheme } from "./useColorScheme.ts";
import { themeFor } from "./monaco-themes.ts";

/** Sets every open model's markers from the problems that name its file. */
export function useMarkers(plugin: string, paths: readonly string[], problems: readonly Problem[]) {
  const key = JSON.stringify([paths, problems]);
  useEffect(() => {
    for (const path of paths) {
      const model = monaco.editor.getModel(monaco.Uri.parse(fileUri(plugin, path)));
      if (!model) continue;
      const markers = problems
        .filter((p) => p.file === path)
        .map((p) => {
          const line = Math.min(p.line ?? 1, model.getLineCount());
          const column = p.column ?? 1;
          return {
            severity: monaco.MarkerSeverity.Error,
            message: p.title,
            source: p.source,
            startLineNumber: line,
            startColumn: p.line ? column : 1,
            endLineNumber: line,
            endColumn: p.line
              ? Math.max(column + 1, model.getLineMaxColumn(line))
              : model.getLineMaxColumn(line),
          };
        });
      monaco.editor.setModelMarkers(model, "islet", markers);
    }
  }, [plugin, key]); // `key` stands for paths and problems
}

/**
 * Drops a closed file's model, so reopening it reads the file again. Deferred: the editor showing
 * it must be gone first (React unmounts it on the next commit), or Monaco reports a disposed model.
 */
export function disposeModel(plugin: string, path: string): void {
  setTimeout(() => {
    const model = monaco.editor.getModel(monaco.Uri.parse(fileUri(plugin, path)));
    if (model && !model.isAttachedToEditor()) model.dispose();
  }, 0);
}

/** Puts the cursor on a problem's line once its file shows in an editor (a tab may be opening). */
export function revealLater(plugin: string, problem: Problem, tries = 20): void {
  const uri = fileUri(plugin, problem.file ?? "");
  const editor = monaco.editor.getEditors().find((e) => e.getModel()?.uri.toString() === uri);
  if (!editor) {
    if (tries > 0) setTimeout(() => revealLater(plugin, problem, tries - 1), 50);
    return;
  }
  const position = { lineNumber: problem.line ?? 1, column: problem.column ?? 1 };
  editor.setPosition(position);
  editor.revealPositionInCenter(position);
  editor.focus();
}

export function CodeEditor({
  plugin,
  path,
  text,
  onChange,
}: {
  plugin: string;
  path: string;
  text: string;
  onChange(text: string): void;
}) {
  const scheme = useColorScheme();
  return (
    <Editor
      path={fileUri(plugin, path)}
      defaultValue={text}
      language={languageOf(path)}
      theme={themeFor(scheme)}
      onChange={(value) => onChange(value ?? "")}
      loading={<p className="loading">Starting the editor…</p>}
      options={{
        fontSize: 13,
        fontFamily:
          "ui-monospace, 'SF Mono', 'Cascadia Mono', 'DejaVu Sans Mono', Menlo, monospace",
        minimap: { enabled: false },
        scrollBeyondLastLine: false,
        automaticLayout: true,
        tabSize: 2,
        renderLineHighlight: "line",
        padding: { top: 10 },
        ariaLabel: `${path} in plugin ${plugin}`,
      }}
    />
  );
}
