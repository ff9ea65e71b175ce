/**
 * Monaco's diff editor for an approval: the file on disk (left, or above when narrow) against
 * what the call would leave. Loaded only when an approval shows a change: Monaco is large.
 */
import { DiffEditor } from "@monaco-editor/react";
import { useEffect, useState } from "react";
import { languageOf, monaco } from "../editor/monaco-setup.ts";
import { themeFor } from "../editor/monaco-themes.ts";
import { useColorScheme } from "../editor/useColorScheme.ts";

let next = 0;

export default function ChangeDiff({
  path,
  before,
  after,
}: {
  path: string;
  before: string;
  after: string;
}) {
  const scheme = useColorScheme();
  // Models of their own per diff, kept by the wrapper (disposing them before the widget lets go
  // of them is a page error on unmount) and disposed here once it has: no leak per approval.
  const [id] = useState(() => `${next++}`);
  const beforeUri = `inmemory://approval/${id}/before/${path}`;
  const afterUri = `inmemory://approval/${id}/after/${path}`;
  useEffect(
    () => () => {
      setTimeout(() => {
        for (const uri of [beforeUri, afterUri])
          monaco.editor.getModel(monaco.Uri.parse(uri))?.dispose();
      });
    },
    [beforeUri, afterUri],
  );
  const lines = Math.max(before.split("\n").length, after.split("\n").length);
  return (
    <div className="change-diff" style={{ height: `${Math.min(420, 40 + lines * 19)}px` }}>
      <DiffEditor
        originalModelPath={beforeUri}
        modifiedModelPath={afterUri}
        keepCurrentOriginalModel
        keepCurrentModifiedModel
        original={before}
        modified={after}
        language={languageOf(path)}
        theme={themeFor(scheme)}
        options={{
          readOnly: true,
          originalEditable: false,
          renderSideBySide: true,
          useInlineViewWhenSpaceIsLimited: true,
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          wordWrap: "on",
          diffWordWrap: "on",
          renderOverviewRuler: false,
          automaticLayout: true,
          fontSize: 12.5,
          // A file's hidden characters are what a reviewer must see: drawn, never skipped.
          renderControlCharacters: true,
          unicodeHighlight: { invisibleCharacters: true, ambiguousCharacters: true },
        }}
      />
    </div>
  );
}
