/** The plugin's files as a tree (folders first), with the open file marked and dirty dots. */
import { useMemo } from "react";
import { FileIcon, FolderIcon } from "../ui/icons.tsx";

interface Node {
  name: string;
  path: string;
  children: Node[] | null;
}

function buildTree(paths: readonly string[]): Node[] {
  const root: Node[] = [];
  for (const p of paths) {
    let level = root;
    const parts = p.split("/");
    parts.forEach((name, i) => {
      const isFile = i === parts.length - 1;
      const path = parts.slice(0, i + 1).join("/");
      let node = level.find((n) => n.name === name && (n.children === null) === isFile);
      if (!node) {
        node = { name, path, children: isFile ? null : [] };
        level.push(node);
      }
      if (node.children) level = node.children;
    });
  }
  const sort = (nodes: Node[]): Node[] =>
    nodes
      .sort(
        (a, b) =>
          Number(a.children === null) - Number(b.children === null) || a.name.localeCompare(b.name),
      )
      .map((n) => (n.children ? { ...n, children: sort(n.children) } : n));
  return sort(root);
}

export function FileTree({
  paths,
  active,
  dirty,
  problemFiles,
  onOpen,
}: {
  paths: readonly string[];
  active: string | null;
  dirty: ReadonlySet<string>;
  problemFiles: ReadonlySet<string>;
  onOpen(path: string): void;
}) {
  const tree = useMemo(() => buildTree(paths), [paths]);
  const render = (nodes: Node[], depth: number) =>
    nodes.map((n) =>
      n.children ? (
        <li key={n.path}>
          <span className="tree-folder" style={{ paddingLeft: 8 + depth * 14 }}>
            <FolderIcon />
            {n.name}
          </span>
          <ul className="tree">{render(n.children, depth + 1)}</ul>
        </li>
      ) : (
        <li key={n.path}>
          <button
            type="button"
            className="tree-file"
            style={{ paddingLeft: 8 + depth * 14 }}
            aria-current={active === n.path ? "true" : undefined}
            onClick={() => onOpen(n.path)}
          >
            <FileIcon />
            <span className="tree-name">{n.name}</span>
            {problemFiles.has(n.path) ? (
              <span className="tree-problem" title="Has problems">
                <span className="visually-hidden">has problems</span>!
              </span>
            ) : null}
            {dirty.has(n.path) ? (
              <span className="dirty-dot" title="Unsaved changes">
                <span className="visually-hidden">unsaved changes</span>
              </span>
            ) : null}
          </button>
        </li>
      ),
    );
  return <ul className="tree tree-root">{render(tree, 0)}</ul>;
}
