// Placeholder shell: proves the renderer builds, respects the CSP, and reaches the engine
// through the bridge. The real UI (chat, plugin browser, editor, settings) replaces it.
import { useEffect, useState } from "react";
import type { AppInfo } from "../../main/bridge/contract.ts";
import { connectBridge } from "./bridge/index.ts";

type BridgeState =
  | { kind: "connecting" }
  | { kind: "absent" }
  | { kind: "connected"; version: AppInfo; roundTripMs: number }
  | { kind: "failed"; message: string };

const bridge = connectBridge();

async function probeBridge(): Promise<BridgeState> {
  const started = performance.now();
  const version = await bridge.call("app/info");
  return { kind: "connected", version, roundTripMs: performance.now() - started };
}

function useBridge(): BridgeState {
  const [state, setState] = useState<BridgeState>({ kind: "connecting" });
  useEffect(() => {
    let live = true;
    probeBridge()
      .then((next) => {
        if (live) setState(next);
      })
      .catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        if (live) setState({ kind: "failed", message });
      });
    return () => {
      live = false;
    };
  }, []);
  return state;
}

function Logo() {
  return (
    <svg className="logo" viewBox="0 0 64 64" aria-hidden="true">
      <circle cx="40" cy="22" r="9" className="logo-sun" />
      <path d="M10 42c6-9 16-13 26-11 7 1 12 5 16 11z" className="logo-island" />
      <path
        d="M6 48c4 0 6-3 10-3s6 3 10 3 6-3 10-3 6 3 10 3 6-3 10-3 4 2 6 3"
        className="logo-wave"
      />
    </svg>
  );
}

function EngineStatus({ state }: { state: BridgeState }) {
  switch (state.kind) {
    case "connecting":
      return (
        <p className="status status-pending" role="status">
          <span className="dot" /> Connecting to the engine…
        </p>
      );
    case "absent":
      return (
        <p className="status status-absent" role="status">
          <span className="dot" /> No engine bridge: this page is open in a plain browser.
        </p>
      );
    case "failed":
      return (
        <p className="status status-failed" role="alert">
          <span className="dot" /> The engine did not answer: {state.message}
        </p>
      );
    case "connected": {
      const v = state.version;
      return (
        <div className="status status-ok" role="status">
          <p>
            <span className="dot" /> Engine {v.version} connected
            <span className="muted"> · {state.roundTripMs.toFixed(1)} ms round trip</span>
          </p>
          <dl className="versions">
            <dt>Electron</dt>
            <dd>{v.versions.electron ?? "none (browser)"}</dd>
            <dt>Node</dt>
            <dd>{v.versions.node}</dd>
            <dt>Platform</dt>
            <dd>{v.platform}</dd>
          </dl>
        </div>
      );
    }
  }
}

export function App() {
  const bridge = useBridge();
  return (
    <main className="shell">
      <section className="card" aria-labelledby="app-name">
        <Logo />
        <h1 id="app-name">Islet</h1>
        <p className="tagline">
          Agent chat with hot-loadable plugins, each running in its own sandbox.
        </p>
        <p className="next">The chat UI comes next.</p>
        <EngineStatus state={bridge} />
      </section>
    </main>
  );
}
