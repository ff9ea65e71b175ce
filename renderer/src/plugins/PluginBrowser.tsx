/**
 * The plugin browser: which sandbox runs the plugins, what is installed and in what state, what
 * could not load, and a Reload button. The list follows hot reloads live (`plugins/changed`).
 */
import { Fragment, useState, type ReactNode } from "react";
import type {
  AppInfo,
  ExtensionEntry,
  PluginEntry,
  PluginList,
} from "../../../main/bridge/contract.ts";
import { useBridgeEvent, type Query } from "../bridge/hooks.ts";
import { tabPanelProps } from "../catalog/PluginsTabs.tsx";
import type { ConnectionState } from "../bridge/index.ts";
import { Callout } from "../ui/Callout.tsx";
import { ReloadIcon, SearchIcon } from "../ui/icons.tsx";
import { BackendBanner } from "./BackendBanner.tsx";
import { EmptyPlugins } from "./EmptyPlugins.tsx";
import { ExtensionList } from "./ExtensionList.tsx";
import { looseProblems, plural } from "./format.ts";
import { McpServers } from "./McpServers.tsx";
import { OnDemandPlugins } from "./OnDemandPlugins.tsx";
import { PluginCard } from "./PluginCard.tsx";
import { ProblemList } from "./ProblemList.tsx";
import { ReloadReport, type ReloadActivity } from "./ReloadReport.tsx";
import { useReload } from "./useReload.ts";

export function PluginBrowser({
  list,
  info,
  connection,
  onEdit,
  tabs,
}: {
  list: Query<PluginList>;
  info: AppInfo | undefined;
  connection: ConnectionState;
  /** Opens a plugin in the editor (the card's Edit button). */
  onEdit?(name: string): void;
  /** The Installed / Catalog tabs, under the title. */
  tabs?: ReactNode;
}) {
  const [filter, setFilter] = useState("");
  const [activity, setActivity] = useState<ReloadActivity | null>(null);
  const reload = useReload();

  useBridgeEvent("plugins/changed", ({ cause, reports }) => {
    // A reload started here reports through its own answer; a restart shows on its card.
    if (reload.inFlight.current || cause === "restart") return;
    setActivity({ kind: cause === "file-change" ? "hot" : "manual", reports, at: new Date() });
  });

  const data = list.data;
  const plugins = data ? matching(data.plugins, filter) : [];
  const online = connection === "open";

  return (
    <section className="view" aria-labelledby="plugins-title">
      <header className="view-header">
        <div>
          <h1 id="plugins-title">Plugins</h1>
          <p className="view-subtitle">
            {(data ? summary(data) : ["Installed code plugins"]).map((part, i) => (
              <Fragment key={part}>
                {i > 0 ? " · " : null}
                <span className="nowrap">{part}</span>
              </Fragment>
            ))}
          </p>
        </div>
        <div className="toolbar">
          {data && data.plugins.length + (data.extensions?.length ?? 0) > 0 ? (
            <label className="search">
              <SearchIcon />
              <span className="visually-hidden">Filter plugins</span>
              <input
                type="search"
                placeholder="Filter plugins"
                value={filter}
                onChange={(e) => setFilter(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === "Escape") setFilter("");
                }}
              />
            </label>
          ) : null}
          <button
            type="button"
            className="button"
            onClick={() =>
              reload.run((reports) => setActivity({ kind: "manual", reports, at: new Date() }))
            }
            disabled={reload.running || !online || data?.backend === null}
            aria-busy={reload.running}
          >
            <span className={reload.running ? "spin" : undefined}>
              <ReloadIcon />
            </span>
            {reload.running ? "Reloading…" : "Reload"}
          </button>
        </div>
        {tabs}
      </header>

      <div className="view-body" {...(tabs ? tabPanelProps("installed") : {})}>
        {data ? <BackendBanner backend={data.backend} /> : null}

        {reload.error ? (
          <Callout tone="bad" title="Reload failed" role="alert">
            <p>{reload.error}. Check the terminal or log of the engine, then try again.</p>
          </Callout>
        ) : null}
        {activity ? (
          <ReloadReport
            activity={activity}
            dirOf={(name) => data?.plugins.find((p) => p.name === name)?.dir}
            onDismiss={() => setActivity(null)}
          />
        ) : null}

        <ListError list={list} online={online} />

        {data === undefined ? (
          list.error === null ? (
            <p className="loading" role="status">
              <span className="spinner" aria-hidden="true" /> Loading plugins…
            </p>
          ) : null
        ) : (
          <>
            <ProblemList problems={looseProblems(data)} home={info?.home} />
            {data.plugins.length === 0 ? (
              data.backend !== null && (data.extensions?.length ?? 0) === 0 ? (
                <EmptyPlugins info={info} />
              ) : null
            ) : plugins.length === 0 ? (
              <p className="no-match">
                No plugin matches “{filter}”.{" "}
                <button type="button" className="link-button" onClick={() => setFilter("")}>
                  Clear the filter
                </button>
              </p>
            ) : (
              <ul className="plugin-list" aria-label="Installed plugins">
                {plugins.map((p) => (
                  <li key={p.name}>
                    <PluginCard
                      plugin={p}
                      showBackend={data.backend !== null && p.backend.name !== data.backend.name}
                      onEdit={onEdit}
                    />
                  </li>
                ))}
              </ul>
            )}
            <ExtensionList entries={data.extensions ?? []} filter={filter} />
          </>
        )}
        <OnDemandPlugins />
        <McpServers />
      </div>
    </section>
  );
}

function ListError({ list, online }: { list: Query<PluginList>; online: boolean }) {
  // While the connection is down, the connection notice says what is going on.
  if (list.error === null || !online) return null;
  const first = list.data === undefined;
  return (
    <Callout
      tone="bad"
      role="alert"
      title={
        first
          ? "Could not load the plugin list"
          : "Could not refresh the plugin list — showing the last one"
      }
    >
      <p>
        {list.error}.{" "}
        <button type="button" className="link-button" onClick={list.refresh}>
          Try again
        </button>
      </p>
    </Callout>
  );
}

/** The header's one-line count, in parts that each stay on one line. */
function summary(data: PluginList): string[] {
  const more = extensionParts(data.extensions ?? []);
  if (data.backend === null) return ["Plugins are off", ...more];
  const n = data.plugins.length;
  if (n === 0 && data.problems.length === 0)
    return more.length > 0 ? more : ["No plugins installed"];
  const counts = new Map<string, number>();
  for (const p of data.plugins) counts.set(p.status, (counts.get(p.status) ?? 0) + 1);
  const parts = [plural(n, "plugin")];
  for (const status of ["active", "disabled", "errored", "failed"] as const) {
    const c = counts.get(status);
    if (c) parts.push(`${c} ${status}`);
  }
  const problems = looseProblems(data).length;
  if (problems > 0) parts.push(`${problems} not loadable`);
  return [...parts, ...more];
}

function extensionParts(entries: ExtensionEntry[]): string[] {
  const hookFiles = entries.filter((e) => e.kind === "shell-hooks").length;
  const claude = entries.length - hookFiles;
  const parts: string[] = [];
  if (hookFiles > 0) parts.push(plural(hookFiles, "shell hook file"));
  if (claude > 0) parts.push(plural(claude, "Claude Code plugin"));
  return parts;
}

function matching(plugins: PluginEntry[], filter: string): PluginEntry[] {
  const q = filter.trim().toLowerCase();
  if (q === "") return plugins;
  return plugins.filter((p) =>
    [p.name, p.description, p.status, p.source, p.tool?.name, p.command?.name, ...p.hooks]
      .filter((s): s is string => typeof s === "string")
      .some((s) => s.toLowerCase().includes(q)),
  );
}
