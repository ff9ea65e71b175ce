/**
 * A Claude Code marketplace folder in a home's plugins dir, as a hand-copied pack: one plugin of
 * its own ("near", a /hi command) and the entries `remote` it lists from other repositories.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

export async function writeMarketplace(
  home: string,
  remote: Record<string, unknown>[],
): Promise<string> {
  const market = path.join(home, "plugins", "mymarket");
  await mkdir(path.join(market, ".claude-plugin"), { recursive: true });
  await mkdir(path.join(market, "plugins", "near", "commands"), { recursive: true });
  await writeFile(path.join(market, "plugins", "near", "commands", "hi.md"), "Say hi.\n");
  await writeFile(
    path.join(market, ".claude-plugin", "marketplace.json"),
    JSON.stringify({
      name: "mymarket",
      owner: { name: "someone" },
      plugins: [{ name: "near", source: "./plugins/near" }, ...remote],
    }),
  );
  return market;
}
