/** `islet tools NAME` for a plugin's tool when the plugin itself failed to load. */
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { islet, tempDirs } from "./testing/islet.ts";

const GREETER = `export function schema() { return { name: "Greet", description: "Greets", parameters: { type: "object", properties: { who: { type: "string" } }, required: ["who"] } }; }
export function execute(ctx, args) { return "Hello, " + args.who + "!"; }`;

test("islet tools names the plugin a tool belongs to when that plugin failed to load, and why", async () => {
  const dirs = await tempDirs();
  try {
    const plugin = path.join(dirs.home, "plugins", "greeter");
    await mkdir(plugin, { recursive: true });
    await writeFile(path.join(plugin, "plugin.yaml"), 'description: "Greets"\n');
    await writeFile(path.join(plugin, "index.ts"), GREETER);
    const args = ["tools", "Greet", "who=Ann", "--home", dirs.home, "--workdir", dirs.workdir];
    const worked = await islet(args);
    assert.equal(worked.code, 0, worked.stderr);
    assert.equal(worked.stdout, "Hello, Ann!\n");

    // An edit breaks the plugin: the tool is gone, and the CLI says whose it was and why.
    await writeFile(path.join(plugin, "index.ts"), `${GREETER}\nexport function (`);
    const broken = await islet(args);
    assert.equal(broken.code, 1);
    const lines = broken.stderr.split("\n").filter((l) => l.startsWith("islet:"));
    assert.equal(lines.length, 1, broken.stderr);
    assert.match(
      lines[0],
      /^islet: Greet is a tool of plugin greeter, which failed to load: .*index\.ts.*$/,
    );
  } finally {
    await dirs.clean();
  }
});

test("islet tools: an unknown tool while some plugin failed to load says that plugin may hold it", async () => {
  const dirs = await tempDirs();
  try {
    const plugin = path.join(dirs.home, "plugins", "greeter");
    await mkdir(plugin, { recursive: true });
    await writeFile(path.join(plugin, "plugin.yaml"), 'description: "Greets"\n');
    await writeFile(path.join(plugin, "index.ts"), "export function (");
    const ran = await islet(["tools", "Greet", "--home", dirs.home, "--workdir", dirs.workdir]);
    assert.equal(ran.code, 2);
    const lines = ran.stderr.split("\n").filter((l) => l.startsWith("islet:"));
    assert.equal(lines.length, 1, ran.stderr);
    assert.match(
      lines[0],
      /^islet: unknown tool "Greet"; plugin greeter failed to load \(.*index\.ts.*\) and may provide it; `islet tools` lists them$/,
    );
  } finally {
    await dirs.clean();
  }
});
