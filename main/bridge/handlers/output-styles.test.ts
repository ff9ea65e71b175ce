/**
 * The output style picker's calls on a real host: the conversation's styles with the current one,
 * a switch as /output-style does it (the next model call gets the style's text, the session file
 * keeps it), an unknown name refused in one line, and — as in Claude Code — a Task's sub-agent
 * still runs with its own agent's prompt, not the style.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { ChatOpened } from "../contract.ts";
import { recordingClient, type RecordingClient } from "../testing.ts";
import { sendIn, startSettingsHarness, type SettingsHarness } from "./testing-host.ts";

const TEACHER =
  "---\nname: Teacher\ndescription: Explains as it goes\n---\nSTYLE: explain why in one sentence.\n";

describe("outputStyles/* on a real host", () => {
  let h: SettingsHarness;
  let c: RecordingClient;
  before(async () => {
    h = await startSettingsHarness(
      [
        { text: ["plain"] },
        {
          toolCalls: [
            { id: "t1", name: "Task", arguments: { subagent_type: "helper", prompt: "Go" } },
          ],
        },
        { text: ["sub answer"] },
        { text: ["styled answer"] },
      ],
      {
        "home/config/output-styles/teacher.md": TEACHER,
        "home/config/agents/helper.md": "---\ndescription: Helps\n---\nHELPER-PROMPT\n",
      },
    );
    c = recordingClient(h.host.service);
  });
  after(async () => {
    await h.close();
  });

  const system = (i: number): string =>
    (h.model.chatRequests[i].body as { messages: { role: string; content: string }[] }).messages
      .filter((m) => m.role === "system")
      .map((m) => m.content)
      .join("\n");

  it("lists, switches, refuses an unknown style; sub-agents keep their own prompt", async () => {
    const { conversationId } = (await c.call("chat/open", {})) as ChatOpened;
    assert.deepEqual(await c.call("outputStyles/list", { conversationId }), {
      styles: [
        { name: "default", description: "The agent's own system prompt." },
        { name: "Teacher", description: "Explains as it goes" },
      ],
      current: "default",
      errors: [],
    });
    await sendIn(c, conversationId, "hi");
    assert.doesNotMatch(system(0), /STYLE:/);

    assert.deepEqual(await c.call("outputStyles/select", { conversationId, style: "teacher" }), {
      style: "Teacher",
    });
    const listed = (await c.call("outputStyles/list", { conversationId })) as { current: string };
    assert.equal(listed.current, "Teacher");
    await assert.rejects(
      c.call("outputStyles/select", { conversationId, style: "nope" }),
      /unknown output style "nope"; known: default, Teacher/,
    );

    await sendIn(c, conversationId, "use the helper");
    assert.match(system(1), /STYLE: explain why/, "the main conversation gets the style");
    assert.match(system(2), /HELPER-PROMPT/);
    assert.doesNotMatch(system(2), /STYLE:/, "the sub-agent does not");
    assert.match(system(3), /STYLE: explain why/);

    // Another client that never opened the conversation may not read or change it.
    const stranger = recordingClient(h.host.service);
    await assert.rejects(stranger.call("outputStyles/list", { conversationId }));
  });
});
