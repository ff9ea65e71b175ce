/**
 * `sessions/*` on a real engine and real session files: list with search over titles and message
 * text, rename, export, delete (closing the conversation where it is open), and the
 * `sessions/changed` events other windows refresh on.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { BridgeError } from "../contract.ts";
import type { SessionItem } from "../schemas/sessions.ts";
import { recordingClient, type RecordingClient } from "../testing.ts";
import { chatOnce, sendIn, startSettingsHarness, type SettingsHarness } from "./testing-host.ts";

const list = async (c: RecordingClient, query?: string) =>
  (
    (await c.call("sessions/list", query === undefined ? {} : { query })) as {
      sessions: SessionItem[];
    }
  ).sessions;

/** The next `sessions/changed` after now (earlier ones are taken first). */
async function nextChange(c: RecordingClient): Promise<{ seen: Promise<unknown> }> {
  const earlier = c.of("sessions/changed").length;
  for (let i = 0; i < earlier; i++) await c.next("sessions/changed");
  return { seen: c.next("sessions/changed") };
}

describe("bridge: sessions on real files", () => {
  let h: SettingsHarness;
  let a: RecordingClient;
  let b: RecordingClient;
  let bananas: string;
  let apples: string;

  before(async () => {
    h = await startSettingsHarness([
      { text: ["Bananas are yellow."] },
      { text: ["Apples grow on a kiwi-free tree."] },
    ]);
    a = recordingClient(h.host.service);
    b = recordingClient(h.host.service);
    bananas = await chatOnce(a, "Tell me about bananas");
    apples = await chatOnce(a, "And apples?");
  });

  after(async () => {
    a.close();
    b.close();
    await h.close();
  });

  it("lists newest first, with titles, counts and which are open", async () => {
    const all = await list(b);
    assert.deepEqual(
      all.map((s) => [s.id, s.title, s.messageCount, s.open]),
      [
        [apples, "And apples?", 2, true],
        [bananas, "Tell me about bananas", 2, true],
      ],
    );
    assert.equal(all[0].provider, "local");
    assert.equal(all[0].model, "small:1b");
  });

  it("searches titles and message text; a text match says where", async () => {
    assert.deepEqual(
      (await list(b, "BANANA")).map((s) => [s.id, s.match]),
      [[bananas, null]],
    );
    const kiwi = await list(b, "kiwi");
    assert.deepEqual(
      kiwi.map((s) => s.id),
      [apples],
    );
    assert.match(kiwi[0].match ?? "", /kiwi-free tree/);
    assert.deepEqual(await list(b, "nothing like this"), []);
  });

  it("told every window that sessions were created and written", () => {
    const causes = b.of("sessions/changed").length + a.of("sessions/changed").length;
    assert.ok(causes >= 4, "created and updated, twice, reached the clients");
    assert.ok(
      (a.of("sessions/changed") as { cause: string; id: string }[]).some(
        (e) => e.cause === "created" && e.id === bananas,
      ),
    );
  });

  it("renames: the list, the open conversation and other windows see it", async () => {
    const { seen } = await nextChange(b);
    const renamed = await b.call("sessions/rename", { id: bananas, title: "  Fruit   talk " });
    assert.deepEqual(renamed, { id: bananas, title: "Fruit talk" });
    assert.deepEqual(await seen, { cause: "renamed", id: bananas });
    assert.equal((await list(a)).find((s) => s.id === bananas)?.title, "Fruit talk");
    await assert.rejects(
      b.call("sessions/rename", { id: bananas, title: "   " }),
      (err: BridgeError) => /title: must not be empty/.test(err.message),
    );
  });

  it("exports Markdown and JSON with a file name to save", async () => {
    const md = (await b.call("sessions/export", { id: bananas, format: "markdown" })) as {
      fileName: string;
      mimeType: string;
      text: string;
    };
    assert.equal(md.fileName, `fruit-talk-${bananas}.md`);
    assert.equal(md.mimeType, "text/markdown");
    assert.match(md.text, /Tell me about bananas/);
    assert.match(md.text, /Bananas are yellow\./);
    const json = (await b.call("sessions/export", { id: bananas, format: "json" })) as {
      fileName: string;
      text: string;
    };
    assert.equal(json.fileName, `fruit-talk-${bananas}.json`);
    const parsed = JSON.parse(json.text) as { format: string; messages: unknown[] };
    assert.equal(parsed.format, "islet-session");
    assert.equal(parsed.messages.length, 2);
  });

  it("a damaged session file is reported once, however often the lists refresh", async () => {
    // A folder where a session file should be: listing skips it with a warning.
    h.dirs.write({ "home/sessions/20260101-000000-broken.jsonl/inside.txt": "x" });
    const before = b.of("engine/warning").length;
    await list(b);
    await list(b);
    await list(a, "kiwi");
    const warnings = (b.of("engine/warning") as { title: string }[]).slice(before);
    assert.equal(warnings.length, 1, JSON.stringify(warnings));
    assert.match(warnings[0].title, /20260101-000000-broken/);
  });

  it("deletes a session open in another window: closed there, file gone, everyone told", async () => {
    const file = h.host.engine.store.fileOf(apples);
    assert.ok(existsSync(file));
    const { seen } = await nextChange(a);
    assert.deepEqual(await b.call("sessions/delete", { id: apples }), { id: apples, closed: true });
    assert.ok(!existsSync(file), "the session file is gone");
    assert.deepEqual(await seen, { cause: "deleted", id: apples });
    assert.deepEqual(
      (await list(a)).map((s) => s.id),
      [bananas],
    );
    // The window that had it open can no longer send to it (it shows a new chat instead).
    await assert.rejects(sendIn(a, apples, "still there?"), /not open in this window/);
    await assert.rejects(b.call("sessions/delete", { id: apples }), /no session matches/);
  });
});
