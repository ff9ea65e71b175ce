/** Small pieces of the wording messages share (no Node: the renderer bundles core). */

/** Choices as a message names them: "a", "a or b", "a, b or c". */
export function oneOf(words: readonly string[]): string {
  if (words.length < 2) return words.join("");
  return `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`;
}
