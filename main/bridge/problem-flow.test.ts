/**
 * Problems travel whole from where they arise: a damaged session line, a plugin.yaml that is not
 * YAML and a syntax error in a plugin's code reach the bridge and the editor with their file, line
 * and column as the engine knew them, while `islet serve` prints the same line the CLI always has.
 * The paths hold ":7" and ":2:3" on purpose: a line like `/x/home:7/…:3: text` cannot be read back
 * into its parts, so these fields can only have come from the problems themselves.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { tempDir, type TempDir } from "../code-plugins/loader/testing.ts";
import { warningLines } from "../cli/render.ts";
import { formatProblem, type Problem } from "../host/problem.ts";
import { damagedSession } from "../sessions/testing.ts";
import type { PluginList } from "./contract.ts";
import { openBridgeHost, type BridgeHost } from "./host.ts";
import type { PluginFiles } from "./schemas/editor.ts";
import { recordingClient, type RecordingClient } from "./testing.ts";

const SESSION = "20261121-100000-dmgd";

describe(
  "problems reach the bridge, the editor and the CLI whole",
  { skip: process.platform === "win32" && "no ':' in Windows paths" },
  () => {
    let dirs: TempDir;
    let host: BridgeHost;
    let client: RecordingClient;
    /** What `islet serve` prints on stderr. */
    const printed: string[] = [];

    before(async () => {
      dirs = tempDir("islet-problem-flow-");
      dirs.write({
        [`home:7/sessions/${SESSION}.jsonl`]: damagedSession(SESSION),
        "home:7/plugins/odd:2:3/plugin.yaml": 'description: "fine"\nonce: [yes\n',
        "home:7/plugins/typo/plugin.yaml": 'description: "a syntax error"\n',
        "home:7/plugins/typo/index.ts":
          'export function beforeChat() {\n  return { request: { appendSystem: "x" } ;\n}\n',
        "work/.keep": "",
      });
      host = await openBridgeHost({
        home: dirs.path("home:7"),
        workdir: dirs.path("work"),
        env: {},
        plugins: {},
        host: {
          host: "browser",
          versions: { node: process.versions.node, electron: null, chrome: null },
        },
        warn: warningLines({ out: () => {}, err: (text) => void printed.push(text) }),
      });
      client = recordingClient(host.service);
    });

    after(async () => {
      client.close();
      await host.close();
      dirs.remove();
    });

    it("a damaged session line: the engine warning carries its file and line; the CLI line is unchanged", async () => {
      await client.call("chat/open", { sessionId: SESSION });
      const file = host.engine.store.fileOf(SESSION);
      const [first] = client.of("engine/warning") as Problem[];
      assert.deepEqual(first, {
        source: "sessions",
        file,
        line: 3,
        title: "skipped line: not valid JSON",
      });
      assert.ok(
        printed.includes(`warning: ${file}:3: skipped line: not valid JSON\n`),
        printed.join(""),
      );
    });

    it("a plugin.yaml that is not YAML: listed with its file, line and column, printed as one line", async () => {
      const { problems } = (await client.call("plugins/list", undefined)) as PluginList;
      const file = dirs.path("home:7/plugins/odd:2:3/plugin.yaml");
      const problem = problems.find((p) => p.file === file);
      assert.ok(problem, JSON.stringify(problems));
      assert.equal(problem.source, "plugins");
      assert.ok(problem.line !== undefined && problem.line >= 2, JSON.stringify(problem));
      assert.ok(problem.column !== undefined, JSON.stringify(problem));
      assert.match(problem.title, /^invalid YAML: /);
      const line = `${file}:${problem.line}:${problem.column}: ${problem.title}`;
      assert.equal(formatProblem(problem), line);
      assert.ok(printed.includes(`warning: ${line}\n`), printed.join(""));
    });

    it("a syntax error in a plugin's code: the editor marks its file, line and column", async () => {
      const files = (await client.call("editor/files", { name: "typo" })) as PluginFiles;
      const [problem] = files.problems;
      assert.equal(problem.source, "typo");
      assert.equal(problem.file, "index.ts");
      assert.equal(problem.line, 2);
      assert.ok((problem.column ?? 0) > 1, JSON.stringify(problem));
      // The plugin's error, as the plugin browser and `islet plugins show` print it, names the
      // same place in the absolute path.
      const error = host.engine.plugins?.get("typo")?.plugin.error ?? "";
      const where = `${dirs.path("home:7/plugins/typo/index.ts")}:2:${problem.column}: `;
      assert.ok(error.startsWith(where), error);
    });
  },
);
