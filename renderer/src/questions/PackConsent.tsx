/**
 * The consent dialog's body for plugin packs: what would be installed from where, each plugin
 * and everything it asks for (with the plugin's reason); for an update, the commits and files
 * that changed and only the permissions that are new. Cancel is the default button. It is given
 * the question as `visibleQuestion` made it: every string from the pack is shown with its control
 * and invisible characters as markers, styled here.
 */
import type { PermissionItem, QuestionOf } from "../../../main/host/questions.ts";
import { Marked } from "../ui/Shown.tsx";

type Install = QuestionOf<"pack-install">;
type Update = QuestionOf<"pack-update">;
type Plugin = Install["plugins"][number];

const MAX_COMMITS = 20;
const MAX_FILES = 30;
const MAX_REMOTE = 30;

const KIND: Record<PermissionItem["kind"], string> = {
  network: "Network",
  path: "Files",
  exec: "Programs",
  env: "Environment",
  wasm: "WebAssembly",
  rewrite: "Rewrites",
  override: "Replaces",
};

function what(item: PermissionItem): string {
  switch (item.kind) {
    case "network":
      return item.target;
    case "path":
      return `${item.target} (${item.write ? "read and write" : "read only"})`;
    case "exec":
      return item.target ? item.target.replace(/^bash:/, "") : "run programs";
    case "env":
      return item.target;
    case "wasm":
      return "compile WebAssembly";
    case "override":
      return "the tool of the same name, built-ins included";
    case "rewrite":
      return `${item.target} calls' arguments (then approved as usual)`;
  }
}

function Permissions({ items, onlyNew }: { items: PermissionItem[]; onlyNew: boolean }) {
  if (items.length === 0)
    return (
      <p className="consent-none">
        {onlyNew ? "Asks for nothing new." : "Asks for nothing beyond the sandbox's defaults."}
      </p>
    );
  return (
    <ul className="consent-perms" aria-label={onlyNew ? "New permissions" : "Permissions"}>
      {items.map((item, i) => (
        <li key={`${item.kind}:${item.target}:${i}`} className={`consent-perm perm-${item.kind}`}>
          <span className="consent-perm-kind">{KIND[item.kind]}</span>
          <span className="consent-perm-what">
            <Marked text={what(item)} />
          </span>
          <span className="consent-perm-why">
            <Marked text={item.reason} />
          </span>
        </li>
      ))}
    </ul>
  );
}

function PluginBlock({ plugin, onlyNew }: { plugin: Plugin; onlyNew: boolean }) {
  return (
    <li className="consent-plugin">
      <div className="consent-plugin-head">
        <span className="consent-plugin-name">
          <Marked text={plugin.name} />
        </span>
        {plugin.format === "claude" ? <span className="tag">Claude Code plugin</span> : null}
        {plugin.format === "runner" ? <span className="tag">CLI-tool runner</span> : null}
      </div>
      {plugin.description ? (
        <p className="consent-plugin-desc">
          <Marked text={plugin.description} />
        </p>
      ) : null}
      <Permissions items={plugin.permissions} onlyNew={onlyNew} />
    </li>
  );
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function PackInstallBody({ q }: { q: Install }) {
  const at = [
    q.ref ? `ref ${q.ref}` : null,
    q.subpath ? `folder ${q.subpath}` : null,
    q.commit ? `commit ${q.commit.slice(0, 12)}` : null,
  ]
    .filter(Boolean)
    .join(" · ");
  return (
    <>
      <h2 id="question-title">
        Install <Marked text={q.pack} />?
      </h2>
      {q.listedBy ? (
        <p className="consent-via">
          The Claude Code marketplace <Marked text={q.listedBy} /> lists it; it installs from its
          own repository, below.
        </p>
      ) : null}
      {q.via === "link" ? (
        <p className="consent-via">
          A link opened Islet and asks for this install: install only if you trust where it came
          from.
        </p>
      ) : null}
      <p id="question-message" className="consent-lead">
        {plural(q.plugins.length, "plugin")} into{" "}
        {q.scope === "global" ? "your global plugins" : "this workspace's plugins"}. Each runs in
        its own sandbox and gets only what is listed here.
      </p>
      <p className="consent-source">
        <span className="path">
          <Marked text={q.source} />
        </span>
        {at ? (
          <span className="consent-at">
            <Marked text={at} />
          </span>
        ) : null}
      </p>
      <div className="consent-scroll" tabIndex={0} aria-label="What would be installed">
        <ul className="consent-plugins">
          {q.plugins.map((p) => (
            <PluginBlock key={p.name} plugin={p} onlyNew={false} />
          ))}
        </ul>
        <SameNamedSections sameNamed={q.sameNamed} />
        {q.remote?.length ? (
          <section className="consent-section" aria-label="Not part of this install">
            <h3>
              Not part of this install: {plural(q.remote.length, "plugin")} it lists from other
              repositories
            </h3>
            <p className="consent-note">
              Each installs on its own, with Install beside it on the pack&apos;s card once this one
              is installed.
            </p>
            <ul className="consent-files consent-remote">
              {q.remote.slice(0, MAX_REMOTE).map((r) => (
                <li key={r.name}>
                  <span className="consent-mono">
                    <Marked text={r.name} />
                  </span>{" "}
                  <span className="consent-remote-source">
                    <Marked text={r.source} />
                  </span>
                </li>
              ))}
              {q.remote.length > MAX_REMOTE ? (
                <li className="muted">… and {q.remote.length - MAX_REMOTE} more</li>
              ) : null}
            </ul>
          </section>
        ) : null}
      </div>
    </>
  );
}

/** Plugins an installed pack already has under their names: that pack's copies go on loading. */
function SameNamedSections({ sameNamed }: { sameNamed: Install["sameNamed"] }) {
  return (sameNamed ?? []).map((same) => (
    <section
      key={same.pack}
      className="consent-section"
      aria-label={`Already installed from ${same.pack}`}
    >
      <h3>
        Already installed from <Marked text={same.pack} />: {plural(same.plugins.length, "plugin")}
      </h3>
      <p className="consent-note">
        Two marketplaces carry them under the same names. The copies from{" "}
        <Marked text={same.pack} /> go on loading; these do not, until that pack is removed.
      </p>
      <p className="consent-mono">
        <Marked text={same.plugins.join(", ")} />
      </p>
    </section>
  ));
}

/** Plugin names under a heading; nothing when there are none. */
function NamesSection({ title, names }: { title: string; names: string[] }) {
  if (names.length === 0) return null;
  return (
    <section className="consent-section">
      <h3>{title}</h3>
      <p className="consent-mono">
        <Marked text={names.join(", ")} />
      </p>
    </section>
  );
}

const CHANGE: Record<Update["files"][number]["change"], string> = {
  added: "A",
  modified: "M",
  deleted: "D",
  renamed: "R",
};

export function PackUpdateBody({ q }: { q: Update }) {
  const asking = q.plugins.filter((p) => p.permissions.length > 0);
  return (
    <>
      <h2 id="question-title">
        Update <Marked text={q.pack} />?
      </h2>
      <p id="question-message" className="consent-lead">
        From <code>{q.from.slice(0, 7)}</code> to <code>{q.to.slice(0, 7)}</code>:{" "}
        {plural(q.commits.length, "commit")}, {plural(q.files.length, "file")} changed.{" "}
        {asking.length
          ? "It asks for more than you granted."
          : "It asks for nothing beyond what you granted."}
      </p>
      <p className="consent-source">
        <span className="path">
          <Marked text={q.source} />
        </span>
      </p>
      <div className="consent-scroll" tabIndex={0} aria-label="What the update changes">
        {asking.length ? (
          <section className="consent-section consent-new">
            <h3>New permissions</h3>
            <ul className="consent-plugins">
              {asking.map((p) => (
                <PluginBlock key={p.name} plugin={p} onlyNew />
              ))}
            </ul>
          </section>
        ) : null}
        <NamesSection title="Adds" names={q.added} />
        <SameNamedSections sameNamed={q.sameNamed} />
        <NamesSection title="Removes" names={q.removed} />
        <section className="consent-section">
          <h3>{plural(q.commits.length, "commit")}</h3>
          <ul className="consent-commits">
            {q.commits.slice(0, MAX_COMMITS).map((c) => (
              <li key={c.hash}>
                <code>{c.hash.slice(0, 7)}</code>
                <span className="consent-commit-subject">
                  <Marked text={c.subject} />
                </span>
                <span className="consent-commit-author">
                  <Marked text={c.author} />
                </span>
              </li>
            ))}
            {q.commits.length > MAX_COMMITS ? (
              <li className="muted">… and {q.commits.length - MAX_COMMITS} more</li>
            ) : null}
          </ul>
        </section>
        <section className="consent-section">
          <h3>{plural(q.files.length, "file")} changed</h3>
          <ul className="consent-files">
            {q.files.slice(0, MAX_FILES).map((f) => (
              <li key={f.path}>
                <span className={`consent-change change-${f.change}`} title={f.change}>
                  {CHANGE[f.change]}
                  <span className="visually-hidden"> ({f.change})</span>
                </span>
                <span className="consent-mono">
                  <Marked text={f.path} />
                </span>
              </li>
            ))}
            {q.files.length > MAX_FILES ? (
              <li className="muted">… and {q.files.length - MAX_FILES} more</li>
            ) : null}
          </ul>
        </section>
      </div>
    </>
  );
}
