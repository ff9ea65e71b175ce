/** Settings → Tool approvals and Plugins (runtime, unsafe mode): what the engine enforces. */
import { useState } from "react";
import {
  SANDBOX_BACKEND_NAMES,
  SANDBOX_BACKEND_TABLE,
} from "../../../main/core/sandbox-backends.ts";
import type { SettingsView } from "./useSettings.ts";
import type { ApprovalRule } from "../../../main/core/approval-rules.ts";
import { Callout } from "../ui/Callout.tsx";
import { Row, Section, Segmented } from "./Section.tsx";
import { useShown, type SettingsState } from "./useSettings.ts";

const RULES: { value: ApprovalRule; label: string }[] = [
  { value: "ask", label: "Ask" },
  { value: "allow", label: "Always allow" },
  { value: "deny", label: "Never" },
];

export function ApprovalsSection({
  view,
  change,
}: {
  view: SettingsView;
  change: SettingsState["change"];
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const set = async (tool: string, rule: ApprovalRule) =>
    setFailure(await change("settings/set", { approvals: { [tool]: rule } }));
  return (
    <Section
      id="approvals"
      title="Tool approvals"
      description={
        <>
          Whether a tool call runs without asking, in this workspace (
          <span className="path">{view.approvals.workdir}</span>).
        </>
      }
    >
      {failure ? (
        <p className="form-error" role="alert">
          {failure}
        </p>
      ) : null}
      <table className="approvals">
        <thead>
          <tr>
            <th scope="col">Tool</th>
            <th scope="col">When the agent calls it</th>
          </tr>
        </thead>
        <tbody>
          {view.approvals.tools.map((t) => (
            <tr key={t.tool}>
              <th scope="row">
                {t.tool}
                {t.rule !== t.defaultRule ? <span className="tag">changed</span> : null}
              </th>
              <td>
                <select
                  className="input input-inline"
                  aria-label={`${t.tool}: when the agent calls it`}
                  value={t.rule}
                  onChange={(e) => void set(t.tool, e.target.value as ApprovalRule)}
                >
                  {RULES.map((r) => (
                    <option key={r.value} value={r.value}>
                      {r.label}
                      {r.value === t.defaultRule ? " (default)" : ""}
                    </option>
                  ))}
                </select>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

export function PluginsSection({
  view,
  change,
}: {
  view: SettingsView;
  change: SettingsState["change"];
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const p = view.plugins;
  const [runtime, showRuntime] = useShown(p.runtime);
  const [unsafe, showUnsafe] = useShown(p.unsafe);
  const pending =
    p.unsafe !== p.active.unsafe || (p.runtime !== "auto" && p.runtime !== p.active.runtime);
  return (
    <Section
      id="plugins-settings"
      title="Plugins"
      description={
        <>
          How plugins are sandboxed, saved in <span className="path">{p.file}</span>. Changes take
          effect when Islet restarts.
        </>
      }
    >
      {failure ? (
        <p className="form-error" role="alert">
          {failure}
        </p>
      ) : null}
      <Row
        label="Sandbox runtime"
        hint={`Running now: ${p.active.runtime ?? "plugins off"}. Automatic uses isolated-vm where this system runs it safely, else QuickJS.`}
      >
        <Segmented
          name="runtime"
          label="Sandbox runtime"
          value={runtime}
          options={[
            { value: "auto", label: "Automatic" },
            ...SANDBOX_BACKEND_NAMES.map((name) => ({
              value: name,
              label: SANDBOX_BACKEND_TABLE[name].label,
            })),
          ]}
          onChange={async (next) => {
            showRuntime(next);
            setFailure(await change("settings/set", { pluginRuntime: next }));
          }}
        />
      </Row>
      <Row
        label="Unsafe mode"
        hint="Lets plugins that were granted it run programs on this computer (exec)."
        htmlFor="unsafe-plugins"
      >
        <label className="switch">
          <input
            id="unsafe-plugins"
            type="checkbox"
            role="switch"
            checked={unsafe}
            onChange={async (e) => {
              showUnsafe(e.target.checked);
              setFailure(await change("settings/set", { unsafePlugins: e.target.checked }));
            }}
          />
          <span>{unsafe ? "On" : "Off"}</span>
        </label>
      </Row>
      {unsafe ? (
        <Callout tone="warn" title="Unsafe mode lets plugins run programs as you">
          <p>
            A plugin granted exec can then read, change or delete anything your account can. Turn it
            on only for plugins you wrote or trust completely.
          </p>
        </Callout>
      ) : null}
      {pending ? (
        <Callout tone="info" title="Restart Islet to apply" role="status">
          <p>The running engine keeps its current sandbox settings until it restarts.</p>
        </Callout>
      ) : null}
    </Section>
  );
}
