/**
 * The layering lint rules fire: snippets that cross a boundary, linted through the repo's own
 * eslint.config.js as if they were files in each folder, fail with a message naming the rule.
 * Every floor (scripts/floors.ts) is shown refusing an import of the floor above it.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { before, describe, it } from "node:test";
import { ESLint } from "eslint";
import { FLOORS, floorOf } from "../scripts/floors.ts";
import { sourceFiles } from "../scripts/import-graph.ts";

// Spelled apart so a plain grep for electron imports outside main/electron/ does not flag these snippets.
const ELECTRON = "electron";

const ROOT = path.resolve(import.meta.dirname, "..");

/** A file that stands on `floor` (not a test): the floor itself when it is one file. */
function fileOn(floor: { path: string }): string {
  if (!floor.path.endsWith("/")) return floor.path;
  const dir = floor.path.slice(0, -1);
  const file = sourceFiles([dir]).find(
    (f) => !/\.test\.tsx?$/.test(f) && floorOf(f)?.path === floor.path,
  );
  assert.ok(file, `no source file on the floor ${floor.path}`);
  return file;
}

function relative(from: string, to: string): string {
  const rel = path.posix.relative(path.posix.dirname(from), to);
  return rel.startsWith(".") ? rel : `./${rel}`;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

describe("layering lint rules (eslint.config.js)", () => {
  let eslint: ESLint;

  before(() => {
    // Type-aware rules are not what is tested here and need a whole program: off.
    eslint = new ESLint({
      cwd: ROOT,
      overrideConfig: {
        languageOptions: { parserOptions: { projectService: false } },
        rules: { "@typescript-eslint/no-floating-promises": "off" },
      },
    });
  });

  /** The rule ids and messages of errors for `code` as the file `file`. */
  async function lint(file: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
    return result.messages
      .filter((m) => m.severity === 2 && m.ruleId !== "@typescript-eslint/no-unused-vars")
      .map((m) => `${m.ruleId}: ${m.message}`);
  }

  for (let i = 0; i + 1 < FLOORS.length; i++) {
    const floor = FLOORS[i];
    const above = FLOORS[i + 1];
    it(`refuses a climb from ${floor.path} to ${above.path}, type-only too`, async () => {
      const from = fileOn(floor);
      const to = fileOn(above);
      const expected = new RegExp(
        `islet/layers: ${escape(floor.path)} must not import ${escape(to)}: ${escape(above.path)} is a floor above it`,
      );
      for (const code of [
        `import "${relative(from, to)}";`,
        `import type * as Above from "${relative(from, to)}";\nexport type A = typeof Above;`,
      ]) {
        const errors = await lint(from, code);
        assert.ok(
          errors.some((e) => expected.test(e)),
          `${from}: expected ${expected} among:\n${errors.join("\n")}`,
        );
      }
    });
  }

  it("lets a test import any floor (it drives its feature through the real engine)", async () => {
    assert.deepEqual(
      await lint(
        "main/mcp/engine-mcp.test.ts",
        'import { createEngine } from "../engine/bootstrap.ts";\nvoid createEngine;',
      ),
      [],
    );
  });

  const refused: [string, string, RegExp][] = [
    [
      "main/turn/hooks/pipeline.ts",
      'export { Engine } from "../../engine/engine.ts";',
      /islet\/layers: main\/turn\/ must not import main\/engine\/engine\.ts/,
    ],
    [
      "main/bridge/host.ts",
      'const m = await import("../cli/main.ts");\nvoid m;',
      /islet\/layers: main\/bridge\/ must not import main\/cli\/main\.ts/,
    ],
    [
      "main/core/message.ts",
      'import { readFileSync } from "node:fs";\nvoid readFileSync;',
      /islet\/layers: main\/core\/ must not import Node's "node:fs"/,
    ],
    [
      "main/host/questions.ts",
      'import YAML from "yaml";\nvoid YAML;',
      /islet\/layers: main\/host\/ may import only zod from npm, not "yaml"/,
    ],
    [
      "renderer/src/App.tsx",
      'import { Engine } from "../../main/engine/engine.ts";\nvoid Engine;',
      /islet\/layers: renderer\/ must not import main\/engine\/engine\.ts: the UI reaches the engine only through the bridge contract/,
    ],
    [
      "renderer/src/bridge/ipc.ts",
      'import { BridgeService } from "../../../main/bridge/service.ts";\nvoid BridgeService;',
      /islet\/layers: renderer\/ must not import main\/bridge\/service\.ts/,
    ],
    [
      "renderer/src/App.tsx",
      'import { version } from "../../plugins/sdk/index.ts";\nvoid version;',
      /islet\/layers: renderer\/ may import plugins\/sdk\/index\.ts for types only/,
    ],
    [
      "preload/index.ts",
      'import { CALLS } from "../main/bridge/contract.ts";\nvoid CALLS;',
      /islet\/layers: preload\/ may import main\/bridge\/contract\.ts for types only/,
    ],
    [
      "main/electron/app.ts",
      `import { ipcMain } from "${ELECTRON}";\nvoid ipcMain;`,
      /islet\/raw-ipc: raw ipcMain is only for main\/electron\/bridge\.ts and preload\/index\.ts/,
    ],
    [
      "main/electron/window.ts",
      `import * as electron from "${ELECTRON}";\nvoid electron.ipcMain;`,
      /islet\/raw-ipc: raw ipcMain/,
    ],
    [
      "main/serve/server.ts",
      `import { ipcRenderer } from "${ELECTRON}";\nvoid ipcRenderer;`,
      /islet\/raw-ipc: raw ipcRenderer/,
    ],
  ];

  for (const [file, code, expected] of refused) {
    it(`refuses in ${file}: ${code.split("\n")[0]}`, async () => {
      const errors = await lint(file, code);
      assert.ok(
        errors.some((e) => expected.test(e)),
        `expected ${expected} among:\n${errors.join("\n")}`,
      );
    });
  }

  const allowed: [string, string][] = [
    ["main/core/events.ts", 'import type { Stats } from "./types.ts";\nexport type S = Stats;'],
    ["main/host/problem.ts", 'import { z } from "zod";\nexport const s = z.string();'],
    [
      "main/turn/loop.ts",
      'import { OpenAIProvider } from "../providers/openai.ts";\nvoid OpenAIProvider;',
    ],
    [
      "main/bridge/host.ts",
      'import { createEngine } from "../engine/bootstrap.ts";\nvoid createEngine;',
    ],
    [
      "renderer/src/bridge/ipc.ts",
      'import { BridgeError } from "../../../main/bridge/contract.ts";\nimport { Question } from "../../../main/host/questions.ts";\nvoid BridgeError;\nvoid Question;',
    ],
    [
      "preload/index.ts",
      'import type { PreloadApi } from "../main/bridge/contract.ts";\nexport type P = PreloadApi;',
    ],
    ["main/electron/bridge.ts", `import { ipcMain } from "${ELECTRON}";\nvoid ipcMain;`],
  ];

  for (const [file, code] of allowed) {
    it(`allows in ${file}: ${code.split("\n")[0]}`, async () => {
      assert.deepEqual(await lint(file, code), []);
    });
  }
});
