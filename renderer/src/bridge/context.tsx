/** Hands the one bridge to every component, so they can be rendered against a test double. */
import { createContext, useContext, type ReactNode } from "react";
import type { LiveBridge } from "./index.ts";

const BridgeContext = createContext<LiveBridge | null>(null);

export function BridgeProvider({ bridge, children }: { bridge: LiveBridge; children: ReactNode }) {
  return <BridgeContext value={bridge}>{children}</BridgeContext>;
}

export function useBridge(): LiveBridge {
  const bridge = useContext(BridgeContext);
  if (bridge === null) throw new Error("useBridge() needs a <BridgeProvider> above it");
  return bridge;
}
