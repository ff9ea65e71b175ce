/** Which sandbox backend runs the plugins, and why — at the top of the plugin browser. */
import type { SandboxBackend } from "../../../main/bridge/contract.ts";
import { ShieldIcon } from "../ui/icons.tsx";
import { BACKEND_LABEL, BACKEND_SUMMARY } from "./format.ts";

export function BackendBanner({ backend }: { backend: SandboxBackend | null }) {
  if (backend === null)
    return (
      <section className="backend backend-off" aria-label="Sandbox backend">
        <span className="backend-icon">
          <ShieldIcon size={20} />
        </span>
        <div className="backend-text">
          <p className="backend-title">Plugins are off in this session</p>
          <p className="backend-summary">
            The engine was started with <code>--without-plugins</code>. Start it without that flag
            to load your plugins.
          </p>
        </div>
      </section>
    );
  return (
    <section className="backend" aria-label="Sandbox backend">
      <span className="backend-icon">
        <ShieldIcon size={20} />
      </span>
      <div className="backend-text">
        <p className="backend-title">
          Plugins run in <strong>{BACKEND_LABEL[backend.name]}</strong>
          <span className="backend-reason"> — {backend.reason}</span>
        </p>
        <p className="backend-summary">{BACKEND_SUMMARY[backend.name]}</p>
        <details className="backend-more">
          <summary>About the two sandbox backends</summary>
          <dl className="backend-compare">
            <dt>isolated-vm</dt>
            <dd>
              One V8 isolate per plugin: fastest, each with a memory and time limit. The desktop app
              uses it only after a probe has shown it is safe under its Electron build.
            </dd>
            <dt>QuickJS</dt>
            <dd>
              A JavaScript engine compiled to WebAssembly: no native module, a hard memory limit,
              about 20× slower on heavy computation. Hooks that only inspect the conversation do not
              notice.
            </dd>
          </dl>
          <p className="backend-pick">
            Pick one with <code>--plugin-runtime isolated-vm|quickjs</code> or{" "}
            <code>plugins.runtime</code> in <code>config/features/plugins.yaml</code>.
          </p>
        </details>
      </div>
    </section>
  );
}
