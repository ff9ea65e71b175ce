/** Which sandbox backend runs the plugins, and why — at the top of the plugin browser. */
import { Fragment } from "react";
import type { SandboxBackend } from "../../../main/bridge/contract.ts";
import {
  SANDBOX_BACKEND_NAMES,
  SANDBOX_BACKEND_TABLE,
} from "../../../main/core/sandbox-backends.ts";
import { ShieldIcon } from "../ui/icons.tsx";

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
          Plugins run in <strong>{SANDBOX_BACKEND_TABLE[backend.name].label}</strong>
          <span className="backend-reason"> — {backend.reason}</span>
        </p>
        <p className="backend-summary">{SANDBOX_BACKEND_TABLE[backend.name].summary}</p>
        <details className="backend-more">
          <summary>About the two sandbox backends</summary>
          <dl className="backend-compare">
            {SANDBOX_BACKEND_NAMES.map((name) => (
              <Fragment key={name}>
                <dt>{SANDBOX_BACKEND_TABLE[name].label}</dt>
                <dd>{SANDBOX_BACKEND_TABLE[name].about}</dd>
              </Fragment>
            ))}
          </dl>
          <p className="backend-pick">
            Pick one with <code>--plugin-runtime {SANDBOX_BACKEND_NAMES.join("|")}</code> or{" "}
            <code>plugins.runtime</code> in <code>config/features/plugins.yaml</code>.
          </p>
        </details>
      </div>
    </section>
  );
}
