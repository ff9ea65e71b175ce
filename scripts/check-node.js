// The one Node check: `npm install` (preinstall), `npm start`, `npm test` and `bin/islet.js` run it
// before anything else, so an older Node gets one line saying what to do instead of a stack trace
// about ".ts" files. Plain JavaScript that any Node still in use can parse.
import { fileURLToPath } from "node:url";

export const NEEDED_NODE_MAJOR = 24;

/** The line to print when this Node is too old, or null when it will do. */
export function nodeTooOld(version = process.versions.node, execPath = process.execPath) {
  const major = Number(version.split(".")[0]);
  if (major >= NEEDED_NODE_MAJOR) return null;
  return (
    `islet: Node.js ${NEEDED_NODE_MAJOR} or newer is needed, and this is Node ${version} ` +
    `(${execPath}). Install it with \`npm install --prefix ~/.cache/islet-node24 node@24\` and ` +
    "put ~/.cache/islet-node24/node_modules/node/bin first on PATH (or `nvm install 24`), then " +
    "run the command again."
  );
}

/** Exits with the line above when this Node is too old. */
export function requireNode() {
  const problem = nodeTooOld();
  if (problem === null) return;
  console.error(problem);
  process.exit(1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) requireNode();
