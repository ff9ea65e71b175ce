/// <reference types="vite/client" />
import type { PreloadApi } from "../../main/bridge/names.ts";

declare global {
  interface Window {
    /** Set by the preload in the desktop app; absent in a browser on `islet serve`. */
    readonly islet?: PreloadApi;
  }
}
