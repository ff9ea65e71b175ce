/**
 * Rendering a component against a FakeBridge, for tests under node:test. Import this module
 * before anything that loads React DOM (it sets up the DOM first), and call `cleanup` after each
 * test: it unmounts what was rendered and fails the test if the UI sent a request the real bridge
 * would have refused (or the test answered what the engine never would).
 *
 * Assert on text (`textOf`), never on an element: a failing node:assert prints its operands, and
 * printing a happy-dom element walks the whole window, which takes for ever.
 */
import "./dom.ts";
import { cleanup as unmountAll, render, type RenderResult } from "@testing-library/react";
import type { ReactNode } from "react";
import { BridgeProvider } from "../bridge/context.tsx";
import { FakeBridge } from "../bridge/fake-bridge.ts";

export { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
export { FakeBridge };

const rendered = new Set<FakeBridge>();

/** What the element says, or null when there is no element. */
export const textOf = (element: Element | null): string | null => element?.textContent ?? null;

export function renderWith(bridge: FakeBridge, ui: ReactNode): RenderResult {
  rendered.add(bridge);
  // A wrapper, so that `rerender` keeps the bridge above the new element.
  return render(ui, {
    wrapper: ({ children }) => <BridgeProvider bridge={bridge}>{children}</BridgeProvider>,
  });
}

export function cleanup(): void {
  unmountAll();
  const refused = [...rendered].flatMap((bridge) => bridge.refused);
  rendered.clear();
  if (refused.length > 0)
    throw new Error(`the real bridge would have refused:\n  ${refused.join("\n  ")}`);
}
