/** No plugins yet: where to put one. */
import type { AppInfo } from "../../../main/bridge/contract.ts";
import { PluginIcon } from "../ui/icons.tsx";

function join(dir: string, ...parts: string[]): string {
  const sep = dir.includes("\\") && !dir.includes("/") ? "\\" : "/";
  return [dir.replace(/[\\/]+$/, ""), ...parts].join(sep);
}

export function EmptyPlugins({ info }: { info: AppInfo | undefined }) {
  const home = info ? join(info.home, "plugins") : "<home>/plugins";
  return (
    <div className="empty">
      <span className="empty-icon">
        <PluginIcon />
      </span>
      <h2>No plugins installed</h2>
      <p>
        Put one in <code className="path">{home}</code>
        {info ? (
          <>
            {" "}
            for every project, or in{" "}
            <code className="path">{join(info.workdir, ".islet", "plugins")}</code> for this one
          </>
        ) : null}
        . A plugin is a folder with a <code>plugin.yaml</code> and an <code>index.ts</code>; it
        shows up here as soon as you save it.
      </p>
    </div>
  );
}
