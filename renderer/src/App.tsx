/** The app shell: the sidebar, the connection and engine notices, and the current view. */
import { useState } from "react";
import { useBridgeQuery, useConnectionState } from "./bridge/hooks.ts";
import { looseProblems } from "./plugins/format.ts";
import { PluginBrowser } from "./plugins/PluginBrowser.tsx";
import { ConnectionNotice } from "./shell/ConnectionNotice.tsx";
import { EngineWarnings } from "./shell/EngineWarnings.tsx";
import { Sidebar } from "./shell/Sidebar.tsx";
import { ChatArea } from "./sessions/ChatArea.tsx";
import { SettingsView } from "./settings/SettingsView.tsx";
import { useAppliedTheme } from "./settings/theme.ts";
import type { ViewId } from "./shell/views.ts";

export function App() {
  const [view, setView] = useState<ViewId>("plugins");
  const connection = useConnectionState();
  useAppliedTheme();
  const info = useBridgeQuery("app/info");
  const plugins = useBridgeQuery("plugins/list", { refreshOn: ["plugins/changed"] });
  const broken = plugins.data
    ? plugins.data.plugins.filter((p) => p.status === "failed" || p.status === "errored").length +
      looseProblems(plugins.data).length
    : 0;

  return (
    <div className="app">
      <Sidebar
        view={view}
        onNavigate={setView}
        connection={connection}
        info={info.data}
        badges={{ plugins: { count: broken, label: "with problems", tone: "bad" } }}
      />
      <main className="main">
        <div className="notices">
          <ConnectionNotice state={connection} />
          <EngineWarnings />
        </div>
        {view === "plugins" ? (
          <PluginBrowser list={plugins} info={info.data} connection={connection} />
        ) : view === "settings" ? (
          <SettingsView />
        ) : (
          <ChatArea info={info} />
        )}
      </main>
    </div>
  );
}
