import { test } from "node:test";
import assert from "node:assert/strict";
import { startFakeOpenAI } from "./fake-openai.ts";
import { startFakeOllama } from "./fake-ollama.ts";

test("fake servers: streams arrive cut mid-event across many TCP reads", async () => {
  const srv = await startFakeOpenAI([{ text: ["one ", "two ", "three ", "four ", "five"] }]);
  try {
    const res = await fetch(`${srv.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", messages: [], stream: true }),
    });
    const reads: string[] = [];
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      reads.push(decoder.decode(chunk, { stream: true }));
    }
    assert.ok(reads.length > 10, `expected many reads, got ${reads.length}`);
    assert.ok(
      reads.some((r) => !r.endsWith("\n\n")),
      "some reads end mid-event",
    );
    assert.match(reads.join(""), /data: \[DONE\]\n\n$/);
    assert.deepEqual(srv.chatRequests[0].body, { model: "m", messages: [], stream: true });
  } finally {
    await srv.close();
  }
});

test("fake servers: an exhausted script answers with a protocol error; push adds more", async () => {
  const srv = await startFakeOllama([]);
  try {
    const post = () =>
      fetch(`${srv.url}/api/chat`, {
        method: "POST",
        body: JSON.stringify({ model: "m", messages: [] }),
      });
    const res = await post();
    assert.equal(res.status, 500);
    assert.match((await res.json()).error, /no scripted response left/);
    srv.push({ text: ["hi"] });
    assert.equal(srv.remaining, 1);
    const ok = await post();
    assert.match(await ok.text(), /"content":"hi"/);
  } finally {
    await srv.close();
  }
});
