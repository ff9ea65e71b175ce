/// <reference types="vite/client" />
import type { IsletApi } from "../../main/electron/contract.ts";

declare global {
  interface Window {
    /** Set by the preload in the desktop app; absent when the page is opened in a plain browser. */
    readonly islet?: IsletApi;
  }
}
