/** `islet trust list|add [DIR]|revoke [DIR]`: which folders may widen Islet through their .islet/. */
import path from "node:path";
import { resolveHomes } from "../config/homes.ts";
import { TrustStore } from "../trust/store.ts";
import { projectWidening } from "../trust/held-back.ts";
import { runnableSurface } from "../trust/surface.ts";
import { COMMON_OPTIONS, parseFlags, pathKind } from "./options.ts";
import { type Output, warningLines } from "./render.ts";
import { UsageError } from "./usage.ts";

export async function trustCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    ...COMMON_OPTIONS,
    json: { type: "boolean" },
  });
  const [sub = "list", dir] = positionals;
  const homes = resolveHomes({ home: values.home, workdir: values.workdir });
  const store = new TrustStore(homes.global, warningLines(io));
  const folder = path.resolve(homes.workdir, dir ?? ".");
  switch (sub) {
    case "list": {
      const records = await store.list();
      if (values.json) io.out(`${JSON.stringify(records, null, 2)}\n`);
      else if (records.length === 0)
        io.out("No folder is trusted or distrusted yet (`islet trust add DIR` trusts one).\n");
      else
        for (const r of records)
          io.out(`${r.decision.padEnd(9)}  ${r.at.slice(0, 10)}  ${r.folder}\n`);
      return 0;
    }
    case "add": {
      if (pathKind(folder) !== "folder")
        throw new UsageError(`trust add ${folder}: no such folder; name a folder that exists`);
      const folderHomes = resolveHomes({ home: values.home, workdir: folder });
      const widening = await projectWidening(folderHomes);
      // What runs from it now is what this trusts: a later change is asked about again.
      const key = await store.record(folder, "trusted", await runnableSurface(folderHomes));
      io.out(
        `Trusted ${key}${widening.length ? `; its .islet/ now enables: ${widening.join("; ")}` : ""}\n`,
      );
      return 0;
    }
    case "revoke": {
      const found = await store.revoke(folder);
      if (!found)
        throw new UsageError(`${folder} has no trust record; \`islet trust list\` shows them`);
      io.out(`Forgot the trust decision for ${folder}; the next run asks again.\n`);
      return 0;
    }
    default:
      throw new UsageError(`trust: unknown subcommand "${sub}" (list, add [DIR], revoke [DIR])`);
  }
}
