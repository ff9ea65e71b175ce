/** New file, rename and delete for the plugin's files (a small inline path field). */
import { useState } from "react";

export function FileActions({
  active,
  onCreate,
  onRename,
  onDelete,
}: {
  active: string | null;
  onCreate(path: string): Promise<void>;
  onRename(to: string): Promise<void>;
  onDelete(): Promise<void>;
}) {
  const [mode, setMode] = useState<"create" | "rename" | null>(null);
  const [value, setValue] = useState("");
  if (mode)
    return (
      <form
        className="file-form"
        onSubmit={(e) => {
          e.preventDefault();
          const v = value.trim();
          setMode(null);
          if (v) void (mode === "create" ? onCreate(v) : onRename(v));
        }}
      >
        <label className="visually-hidden" htmlFor="file-name">
          {mode === "create" ? "New file path" : "New path"}
        </label>
        <input
          id="file-name"
          autoFocus
          value={value}
          placeholder="lib/helper.ts"
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={(e) => e.key === "Escape" && setMode(null)}
        />
      </form>
    );
  return (
    <div className="file-actions">
      <button
        type="button"
        className="link-button"
        onClick={() => (setValue(""), setMode("create"))}
      >
        New file
      </button>
      <button
        type="button"
        className="link-button"
        disabled={!active}
        onClick={() => (setValue(active ?? ""), setMode("rename"))}
      >
        Rename
      </button>
      <button
        type="button"
        className="link-button"
        disabled={!active}
        onClick={() => void onDelete()}
      >
        Delete
      </button>
    </div>
  );
}
