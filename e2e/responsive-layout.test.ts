/**
 * The window's width and the keyboard: below 1100 px the nav shows icons and the chats column
 * folds to a strip, while the header's pickers keep readable names and the context meter stays;
 * either column folds at any width and stays as left after a reload. The first Tab is a skip link
 * to the message box, New chat puts the focus there, and the chats list is one Tab stop.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { skipChat, startChatRig, type ChatRig } from "./support/chat.ts";

describe("responsive layout and keyboard paths", { skip: skipChat, timeout: 180_000 }, () => {
  let rig: ChatRig;
  before(async () => {
    rig = await startChatRig({ viewport: { width: 1400, height: 800 } });
    // Three saved chats, so the list has rows to walk through.
    for (const word of ["alpha", "beta", "gamma"]) {
      rig.model.push({ text: [`ok ${word}`], usage: { input: 1500, output: 5 } });
      await rig.page.getByRole("button", { name: "New chat" }).first().click();
      await rig.composer().fill(`Hello ${word}`);
      await rig.page.keyboard.press("Enter");
      await rig.page.getByText(`ok ${word}`).waitFor({ timeout: 20_000 });
      await rig.page.getByRole("button", { name: "Send" }).waitFor();
    }
  });
  after(async () => {
    await rig?.close();
  });

  const chats = () => rig.page.getByRole("navigation", { name: "Chats" });
  const main = () => rig.page.getByRole("navigation", { name: "Main" });
  const focusedIsComposer = () => rig.composer().evaluate((el) => el === document.activeElement);

  it("at 900 px: icon nav with names and tooltips, chats folded, pickers readable, meter shown", async () => {
    const { page } = rig;
    await page.setViewportSize({ width: 900, height: 700 });
    const chat = main().getByRole("button", { name: "Chat", exact: true });
    await page.waitForFunction(
      () => (document.querySelector(".sidebar")?.getBoundingClientRect().width ?? 999) < 80,
    );
    assert.equal(await chat.getAttribute("title"), "Chat");
    for (const name of ["Models", "Plugins", "Editor", "Settings"])
      assert.equal(
        await main().getByRole("button", { name, exact: true }).getAttribute("title"),
        name,
      );
    await chats().getByRole("button", { name: "Show chats" }).waitFor();
    assert.equal(await chats().getByRole("searchbox").count(), 0, "the list is folded away");
    const chatWidth = await page
      .locator(".chat-column")
      .evaluate((el) => el.getBoundingClientRect().width);
    assert.ok(chatWidth > 700, `the conversation gets the room (${chatWidth} px)`);

    // Each picker shows its whole choice (the model's name may be cut, with a tooltip).
    for (const width of [900, 700]) {
      await page.setViewportSize({ width, height: 700 });
      const cut = await page.locator(".chat-header .picker-select").evaluateAll((selects) =>
        selects.map((el) => {
          const s = el as HTMLSelectElement;
          const style = getComputedStyle(s);
          const ctx = document.createElement("canvas").getContext("2d");
          if (!ctx) return "no canvas";
          ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          const text = s.selectedOptions[0]?.textContent ?? "";
          const room =
            s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          return ctx.measureText(text).width <= room + 1 ? "whole" : `cut: ${text}`;
        }),
      );
      assert.deepEqual(
        cut.slice(0, 2),
        ["whole", "whole"],
        `agent and style pickers at ${width} px`,
      );
    }
    const model = page.locator(".chat-header .picker-model");
    assert.match((await model.getAttribute("title")) ?? "", /fake-model/);
    const meter = page.getByRole("meter", { name: "Context used" });
    assert.ok(await meter.isVisible(), "the context meter is on screen");
    const box = await meter.boundingBox();
    assert.ok(box && box.x + box.width <= 700, "inside the window");
  });

  it("the columns fold and unfold at any width, and stay so after a reload", async () => {
    const { page } = rig;
    await page.setViewportSize({ width: 900, height: 700 });
    await chats().getByRole("button", { name: "Show chats" }).click();
    await chats().getByRole("searchbox", { name: "Search chats" }).waitFor();
    await page.getByRole("button", { name: "Expand sidebar" }).click();
    await page.getByRole("button", { name: "Collapse sidebar" }).waitFor();
    await page.reload();
    await rig.composer().waitFor();
    await chats().getByRole("searchbox", { name: "Search chats" }).waitFor();
    assert.ok(
      (await page.locator(".sidebar").evaluate((el) => el.getBoundingClientRect().width)) > 150,
      "the nav stays unfolded at 900 px",
    );
    // The wide layout keeps its own choice: fold the chats there, reload, still folded.
    await page.setViewportSize({ width: 1400, height: 800 });
    await chats().getByRole("button", { name: "Hide chats" }).click();
    await page.reload();
    await rig.composer().waitFor();
    await chats().getByRole("button", { name: "Show chats" }).waitFor();
    await chats().getByRole("button", { name: "Show chats" }).click();
    await page.setViewportSize({ width: 900, height: 700 });
    await chats().getByRole("button", { name: "Hide chats" }).click();
    await page.getByRole("button", { name: "Collapse sidebar" }).click();
    await page.setViewportSize({ width: 1400, height: 800 });
    await chats().getByRole("searchbox", { name: "Search chats" }).waitFor();
  });

  it("the first Tab is a visible skip link that puts the focus in the message box", async () => {
    const { page } = rig;
    await page.reload();
    await rig.composer().waitFor();
    await page.keyboard.press("Tab");
    const link = page.getByRole("link", { name: "Skip to message box" });
    assert.ok(await link.evaluate((el) => el === document.activeElement), "first Tab stop");
    const box = await link.boundingBox();
    assert.ok(box && box.y >= 0 && box.y < 100, `shown on focus (${JSON.stringify(box)})`);
    await page.keyboard.press("Enter");
    assert.ok(await focusedIsComposer());
    await page.keyboard.press("Shift+Tab");
    const hidden = await link.boundingBox();
    assert.ok(!hidden || hidden.y + hidden.height <= 0, "hidden again once the focus leaves");
  });

  it("New chat puts the focus in the message box", async () => {
    const { page } = rig;
    await chats().getByRole("button", { name: "New chat" }).click();
    await page.waitForFunction(() => document.activeElement?.getAttribute("id") === "message-box");
    await page.setViewportSize({ width: 900, height: 700 });
    await chats().getByRole("button", { name: "New chat" }).click();
    assert.ok(await focusedIsComposer(), "from the folded strip too");
    await page.setViewportSize({ width: 1400, height: 800 });
  });

  it("the chats list is one Tab stop: from the search, one Tab enters it and the next leaves", async () => {
    const { page } = rig;
    await chats().getByRole("searchbox", { name: "Search chats" }).focus();
    await page.keyboard.press("Tab");
    const inList = () =>
      page.evaluate(() => Boolean(document.activeElement?.closest(".sessions-list")));
    assert.ok(await inList(), "Tab enters the list");
    const first = await page.evaluate(() => document.activeElement?.textContent ?? "");
    await page.keyboard.press("ArrowDown");
    const second = await page.evaluate(() => document.activeElement?.textContent ?? "");
    assert.notEqual(first, second, "↓ moves to the next chat");
    await page.keyboard.press("Tab");
    assert.equal(await inList(), false, "the next Tab leaves the list");
    // On the way from New chat to the message box, the whole list is one stop.
    await chats().getByRole("button", { name: "New chat" }).focus();
    const stops: boolean[] = [];
    while (!(await focusedIsComposer()) && stops.length < 30) {
      await page.keyboard.press("Tab");
      stops.push(await inList());
    }
    assert.equal(stops.filter(Boolean).length, 1, "one stop in the chats list");
    assert.ok(stops.length <= 12, `${stops.length} Tabs from New chat to the message box`);
  });

  it("F2 on a row's Actions button, then typing at once, renames with every letter kept", async () => {
    const { page } = rig;
    const row = chats().getByRole("button", { name: /^Hello beta/ });
    await row.focus();
    await page.keyboard.press("ArrowRight");
    assert.match(
      (await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))) ?? "",
      /^Actions for Hello beta/,
    );
    await page.keyboard.press("F2");
    await page.keyboard.type("Quick name");
    await page.keyboard.press("Enter");
    await chats()
      .getByRole("button", { name: /^Quick name/ })
      .waitFor();
  });

  it("Settings → Add provider brings its form on screen with the focus in Name", async () => {
    const { page } = rig;
    await page.setViewportSize({ width: 1100, height: 600 });
    await main().getByRole("button", { name: "Settings" }).click();
    await page.getByRole("button", { name: "Add provider" }).click();
    const form = page.getByRole("form", { name: "Add a provider" });
    await form.waitFor();
    await page.waitForTimeout(300);
    const inView = await form.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.top < window.innerHeight;
    });
    assert.ok(inView, "the form is on screen");
    assert.ok(await form.getByLabel("Name").evaluate((el) => el === document.activeElement));
    await page.keyboard.press("Escape");
    await page.setViewportSize({ width: 1400, height: 800 });
    await main().getByRole("button", { name: "Chat" }).click();
  });

  it("met no console error, CSP violation or outside request", () => {
    assert.deepEqual(rig.problems, []);
  });
});
