/** The app shell: the sidebar, the connection and engine notices, and the current view. */
import { lazy, Suspense, useRef, useState } from "react";
import type { LeaveGuard } from "./editor/EditorView.tsx";
import { ChatView } from "./chat/ChatView.tsx";
import { CatalogView } from "./catalog/CatalogView.tsx";
import { InstallLinkDialog } from "./catalog/InstallLinkDialog.tsx";
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
import { useLayout } from "./shell/layout.ts";
import { COMPOSER_ID } from "./chat/Composer.tsx";

// Monaco is large: it loads with the editor view, not with the app.
const EditorView = lazy(() => import("./editor/EditorView.tsx"));

export function App() {
  const [view, setView] = useState<ViewId>("chat");
  /** The chat's session; null: a new chat (it gets an id with its first prompt). */
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [pluginsTab, setPluginsTab] = useState<PluginsTab>("installed");
  /** Bumped to put the focus in the composer (New chat, the skip link). */
  const [focusComposer, setFocusComposer] = useState(0);
  const layout = useLayout();
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
  const newChat = () => {
    void navigate("chat").then((moved) => {
      if (!moved) return;
      setSessionId(null);
      setFocusComposer((n) => n + 1);
    });
  };
  useBridgeEvent("app/menu", ({ command }) => {
    if (command === "settings") void navigate("settings");
    else newChat();
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
      <a
        className="skip-link"
        href={`#${COMPOSER_ID}`}
        onClick={(e) => {
          e.preventDefault();
          void navigate("chat").then((moved) => moved && setFocusComposer((n) => n + 1));
        }}
      >
        Skip to message box
      </a>
      <Sidebar
        collapsed={layout.collapsed.nav}
        onToggle={() => layout.toggle("nav")}
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
            focusComposer={focusComposer}
            onOpenModels={() => void navigate("models")}
            sessionsPanel={
              <SessionsPanel
                activeId={sessionId}
                onOpen={setSessionId}
                onNewChat={newChat}
                collapsed={layout.collapsed.sessions}
                onToggle={() => layout.toggle("sessions")}
              />
            }
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
      <InstallLinkDialog
        onShowPlugins={() =>
          void navigate("plugins").then((moved) => moved && setPluginsTab("installed"))
        }
      />
      <QuestionDialog />
    </div>
  );
}
