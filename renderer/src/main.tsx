// First of all: zod must be jitless before any module builds a schema (the page's CSP has no
// 'unsafe-eval', and zod's probe for it would be reported as a violation).
import "./bridge/zod-csp.ts";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App.tsx";
import { connectBridge } from "./bridge/index.ts";
import { BridgeProvider } from "./bridge/context.tsx";
import "./styles.css";

const container = document.getElementById("root");
if (container === null) throw new Error("index.html has no #root element");

const bridge = connectBridge();

createRoot(container).render(
  <StrictMode>
    <BridgeProvider bridge={bridge}>
      <App />
    </BridgeProvider>
  </StrictMode>,
);
