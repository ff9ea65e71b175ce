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
