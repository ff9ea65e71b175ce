/**
 * The Settings screen: Appearance, Workspace, Models, Providers, Tool approvals, Plugins. Each control saves
 * at once (there is no Save button) and every window follows (`settings/changed`).
 */
import { AgentPicker } from "../models/AgentPicker.tsx";
import { ModelPicker } from "../models/ModelPicker.tsx";
import { Callout } from "../ui/Callout.tsx";
import { CatalogsSection } from "./CatalogsSection.tsx";
import { ApprovalsSection, PluginsSection } from "./PolicySections.tsx";
import { ProvidersSection } from "./ProvidersSection.tsx";
import { Row, Section, Segmented } from "./Section.tsx";
import { applyTheme, type Theme } from "./theme.ts";
import { useSettings, useShown } from "./useSettings.ts";
import { WorkspaceSection } from "./WorkspaceSection.tsx";
import "../ui/buttons.css";
import "./settings.css";

const SECTIONS = [
  ["appearance", "Appearance"],
  ["workspace", "Workspace"],
  ["models", "Models"],
  ["providers", "Providers"],
  ["approvals", "Tool approvals"],
  ["plugins-settings", "Plugins"],
  ["catalogs", "Catalogs"],
] as const;

export function SettingsView() {
  const { view, loadError, change } = useSettings();
  const [theme, showTheme] = useShown<Theme>(view?.theme ?? "system");
  return (
    <section className="view" aria-labelledby="settings-title">
      <header className="view-header">
        <div>
          <h1 id="settings-title">Settings</h1>
          <p className="view-subtitle">Saved as you change them</p>
        </div>
        <nav aria-label="Settings sections" className="settings-toc">
          {SECTIONS.map(([id, label]) => (
            <a key={id} href={`#${id}`}>
              {label}
            </a>
          ))}
        </nav>
      </header>
      <div className="view-body settings">
        {loadError && !view ? (
          <Callout tone="bad" title="Settings could not be read" role="alert">
            <p>{loadError}</p>
          </Callout>
        ) : null}
        {!view ? (
          !loadError ? (
            <p className="loading" role="status">
              <span className="spinner" aria-hidden="true" /> Reading settings…
            </p>
          ) : null
        ) : (
          <>
            <Section
              id="appearance"
              title="Appearance"
              description={
                <>
                  Saved in <span className="path">{view.file}</span>.
                </>
              }
            >
              <Row label="Theme" hint="System follows your operating system's light or dark mode.">
                <Segmented<Theme>
                  name="theme"
                  label="Theme"
                  value={theme}
                  options={[
                    { value: "system", label: "System" },
                    { value: "light", label: "Light" },
                    { value: "dark", label: "Dark" },
                  ]}
                  onChange={(next) => {
                    showTheme(next);
                    applyTheme(next); // at once; the engine's answer confirms it
                    void change("settings/set", { theme: next });
                  }}
                />
              </Row>
            </Section>
            <WorkspaceSection />
            <Section
              id="models"
              title="Models"
              description="What a new chat starts with. Each chat can switch in its header."
            >
              <Row label="Default model" hint="Saved as default: in providers.yaml.">
                <ModelPicker conversationId={null} />
              </Row>
              <Row
                label="Default agent"
                hint="Agents live in config/agents/*.md in the Islet home."
              >
                <AgentPicker conversationId={null} />
              </Row>
            </Section>
            <ProvidersSection view={view} change={change} />
            <ApprovalsSection view={view} change={change} />
            <PluginsSection view={view} change={change} />
            <CatalogsSection />
          </>
        )}
      </div>
    </section>
  );
}
