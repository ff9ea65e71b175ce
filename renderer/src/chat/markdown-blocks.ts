/**
 * Splits Markdown into top-level blocks that render the same alone as together, so a streaming
 * answer re-renders only its last block (markdown-it on a 40 KB answer takes tens of ms; per
 * frame that would stutter). A block ends at a blank line outside a code fence when the next
 * line starts a new block (not indented: not a list item's continuation or indented code).
 */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function splitBlocks(text: string): string[] {
  const lines = text.split("\n");
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    current.push(line);
    const marker = FENCE.exec(line)?.[1];
    if (marker) {
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      continue;
    }
    if (fence !== null || line.trim() !== "") continue;
    const next = lines[i + 1];
    if (next === undefined || next.trim() === "" || /^\s/.test(next)) continue;
    blocks.push(current.join("\n"));
    current = [];
  }
  if (current.length > 0) blocks.push(current.join("\n"));
  return blocks;
}
