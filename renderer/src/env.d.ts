/// <reference types="vite/client" />
import type { PreloadApi } from "../../main/bridge/contract.ts";

declare global {
  interface Window {
    /**
     * Set by the preload in the desktop app (preload/index.ts implements exactly this type, from
     * the contract); absent in a browser on `islet serve`.
     */
    readonly islet?: PreloadApi;
  }
}
