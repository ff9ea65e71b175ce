/** The app shell: the sidebar, the connection and engine notices, and the current view. */
import { lazy, Suspense, useRef, useState } from "react";
import type { LeaveGuard } from "./editor/EditorView.tsx";
import { ChatView } from "./chat/ChatView.tsx";
import { CatalogView } from "./catalog/CatalogView.tsx";
import { PluginsTabs, type PluginsTab } from "./catalog/PluginsTabs.tsx";
import { useBridgeEvent, useBridgeQuery, useConnectionState } from "./bridge/hooks.ts";
import { looseProblems } from "./plugins/format.ts";
import { PluginBrowser } from "./plugins/PluginBrowser.tsx";
import { QuestionDialog } from "./questions/QuestionDialog.tsx";
import { ConnectionNotice } from "./shell/ConnectionNotice.tsx";
import { EngineWarnings } from "./shell/EngineWarnings.tsx";
import { Sidebar } from "./shell/Sidebar.tsx";
import { AgentPicker } from "./models/AgentPicker.tsx";
import { OutputStylePicker } from "./models/OutputStylePicker.tsx";
import { ModelPicker } from "./models/ModelPicker.tsx";
import { ModelsView } from "./models/ModelsView.tsx";
import { SessionsPanel } from "./sessions/SessionsPanel.tsx";
import { SettingsView } from "./settings/SettingsView.tsx";
import { useAppliedTheme } from "./settings/theme.ts";
import type { ViewId } from "./shell/views.ts";

// Monaco is large: it loads with the editor view, not with the app.
const EditorView = lazy(() => import("./editor/EditorView.tsx"));

export function App() {
  const [view, setView] = useState<ViewId>("chat");
  /** The chat's session; null: a new chat (it gets an id with its first prompt). */
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [pluginsTab, setPluginsTab] = useState<PluginsTab>("installed");
  // The editor asks about unsaved changes before the app leaves it.
  const leaveEditor = useRef<LeaveGuard | null>(null);
  /** Resolves false when the editor's unsaved-changes prompt kept the person there. */
  const navigate = async (next: ViewId): Promise<boolean> => {
    if (view === "editor" && next !== "editor" && leaveEditor.current)
      if (!(await leaveEditor.current())) return false;
    setView(next);
    return true;
  };
  // The desktop app's menu (New Chat, Settings…); `islet serve` has none.
  useBridgeEvent("app/menu", ({ command }) => {
    if (command === "settings") void navigate("settings");
    else void navigate("chat").then((moved) => moved && setSessionId(null));
  });
  const connection = useConnectionState();
  useAppliedTheme();
  const info = useBridgeQuery("app/info", undefined);
  const plugins = useBridgeQuery("plugins/list", undefined, { refreshOn: ["plugins/changed"] });
  const broken = plugins.data
    ? plugins.data.plugins.filter((p) => p.status === "failed" || p.status === "errored").length +
      looseProblems(plugins.data).length
    : 0;

  return (
    <div className="app">
      <Sidebar
        view={view}
        onNavigate={(next) => void navigate(next)}
        connection={connection}
        info={info.data}
        badges={{ plugins: { count: broken, label: "with problems", tone: "bad" } }}
      />
      <main className="main">
        <div className="notices">
          <ConnectionNotice state={connection} />
          <EngineWarnings />
        </div>
        {/* The chat stays mounted behind other views: a running turn goes on meanwhile. */}
        <div className="chat-slot" hidden={view !== "chat"}>
          <ChatView
            sessionId={sessionId}
            onSessionOpened={setSessionId}
            onOpenModels={() => void navigate("models")}
            sessionsPanel={<SessionsPanel activeId={sessionId} onOpen={setSessionId} />}
            headerControls={(id, agent) => (
              <>
                <AgentPicker key={`a-${id}-${agent}`} conversationId={id} />
                {id ? <OutputStylePicker key={`s-${id}`} conversationId={id} /> : null}
                <ModelPicker key={`m-${id}`} conversationId={id} />
              </>
            )}
          />
        </div>
        {view === "models" ? (
          <ModelsView />
        ) : view === "plugins" && pluginsTab === "catalog" ? (
          <CatalogView
            tabs={<PluginsTabs tab={pluginsTab} onChange={setPluginsTab} />}
            connection={connection}
            onManageCatalogs={() => void navigate("settings")}
          />
        ) : view === "plugins" ? (
          <PluginBrowser
            tabs={<PluginsTabs tab={pluginsTab} onChange={setPluginsTab} />}
            list={plugins}
            info={info.data}
            connection={connection}
            onEdit={(name) => {
              setEditing(name);
              setView("editor");
            }}
          />
        ) : view === "editor" ? (
          <Suspense fallback={<p className="loading">Loading the editor…</p>}>
            <EditorView
              plugins={plugins.data?.plugins ?? []}
              plugin={editing}
              onPluginChange={setEditing}
              leaveGuard={leaveEditor}
            />
          </Suspense>
        ) : view === "settings" ? (
          <SettingsView />
        ) : null}
      </main>
      <QuestionDialog />
    </div>
  );
}
