/**
 * Rendered Markdown (markdown.ts), block by block: each block is memoized, so while an answer
 * streams only its last block is rendered again. The code blocks' Copy buttons work by event
 * delegation.
 */
import { memo, useMemo, type MouseEvent } from "react";
import { copyText } from "./copy.ts";
import { renderMarkdown } from "./markdown.ts";
import { splitBlocks } from "./markdown-blocks.ts";
import "./markdown.css";

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const blocks = useMemo(() => splitBlocks(text), [text]);
  return (
    <div className="markdown" onClick={onCopyClick}>
      {blocks.map((block, i) => (
        <Block key={i} text={block} />
      ))}
    </div>
  );
});

const Block = memo(function Block({ text }: { text: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return <div className="md-block" dangerouslySetInnerHTML={{ __html: html }} />;
});

function onCopyClick(e: MouseEvent<HTMLDivElement>): void {
  const button = (e.target as HTMLElement).closest<HTMLButtonElement>("button[data-copy-code]");
  const code = button?.closest(".code-block")?.querySelector("code");
  if (!button || !code) return;
  void copyText(code.textContent ?? "").then((ok) => {
    button.textContent = ok ? "Copied" : "Copy failed";
    setTimeout(() => (button.textContent = "Copy"), 1500);
  });
}
