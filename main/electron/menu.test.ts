/** The application menu's template, built under plain Node (only a type comes from 'electron'). */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { MenuItemConstructorOptions } from "electron";
import type { MenuCommand } from "../bridge/contract.ts";
import { menuTemplate } from "./menu.ts";

type Item = MenuItemConstructorOptions;
const items = (menu: Item[]): Item[] =>
  menu.flatMap((item) => [item, ...items(Array.isArray(item.submenu) ? item.submenu : [])]);

function build(platform: NodeJS.Platform, dev = false) {
  const commands: MenuCommand[] = [];
  const folders: string[] = [];
  const menu = menuTemplate({
    platform,
    dev,
    appName: "Islet",
    showFolder: (which) => folders.push(which),
    command: (c) => commands.push(c),
  });
  const click = (label: string) => {
    const item = items(menu).find((i) => i.label === label);
    assert.ok(item?.click, `no menu item ${label}`);
    (item.click as () => void)();
  };
  return { menu, all: items(menu), commands, folders, click };
}

for (const platform of ["linux", "win32", "darwin"] as const) {
  test(`${platform}: New Chat (⌘/Ctrl+N) and Settings (⌘/Ctrl+,) hand their command to the page`, () => {
    const m = build(platform);
    const settingsLabel = platform === "darwin" ? "Settings…" : "&Settings";
    assert.equal(m.all.find((i) => i.label === "&New Chat")?.accelerator, "CmdOrCtrl+N");
    assert.equal(m.all.find((i) => i.label === settingsLabel)?.accelerator, "CmdOrCtrl+,");
    m.click("&New Chat");
    m.click(settingsLabel);
    assert.deepEqual(m.commands, ["new-chat", "settings"]);
  });
}

test("reload and developer tools only in development; Help shows the home's folders", () => {
  const roles = (dev: boolean) => build("linux", dev).all.map((i) => i.role);
  assert.ok(roles(true).includes("toggleDevTools"));
  assert.ok(!roles(false).includes("toggleDevTools"));
  assert.ok(!roles(false).includes("reload"));
  const m = build("linux");
  m.click("Show Plugins Folder");
  m.click("Show Sessions Folder");
  assert.deepEqual(m.folders, ["plugins", "sessions"]);
});

test("macOS has its app menu first; elsewhere Quit is in File", () => {
  assert.equal(build("darwin").menu[0]?.label, "Islet");
  assert.ok(build("linux").all.some((i) => i.role === "quit"));
  assert.equal(build("linux").menu[0]?.label, "&File");
});
