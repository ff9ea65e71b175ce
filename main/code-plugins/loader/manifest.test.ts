import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseManifest, readManifest } from "./manifest.ts";
import { formatProblem } from "../../host/problem.ts";

const FILE = "/p/.islet/plugins/foo/plugin.yaml";

function errorsOf(yaml: string): string[] {
  const r = parseManifest(yaml, FILE);
  assert.equal(r.ok, false, `expected errors for ${JSON.stringify(yaml)}`);
  return r.ok ? [] : r.errors.map(formatProblem);
}

describe("parseManifest", () => {
  it("normalises every field to camelCase with defaults", () => {
    const r = parseManifest(
      [
        "name: my-plugin",
        "description: Does things",
        "disabled: false",
        "override: true",
        "opt_in: true",
        'condition: "auto and context_above:70"',
        "once: true",
        "env: [MY_API_KEY, MY_API_URL]",
        "config: { max_failures: 3, nested: { a: 1 } }",
        'sdk: "0.1.0"',
        "main: src/main.ts",
        "permissions:",
        "  network: [{ host: api.example.com, reason: send notifications }]",
      ].join("\n"),
      FILE,
    );
    assert.ok(r.ok);
    const m = r.manifest;
    assert.equal(m.name, "my-plugin");
    assert.equal(m.description, "Does things");
    assert.deepEqual([m.disabled, m.override, m.optIn, m.once], [false, true, true, true]);
    assert.equal(m.condition?.source, "auto and context_above:70");
    assert.equal(m.condition?.all.length, 2);
    assert.deepEqual(m.env, ["MY_API_KEY", "MY_API_URL"]);
    assert.deepEqual(m.config, { max_failures: 3, nested: { a: 1 } });
    assert.equal(m.sdk, "0.1.0");
    assert.equal(m.main, "src/main.ts");
    assert.deepEqual(m.permissions, {
      network: [{ host: "api.example.com", reason: "send notifications" }],
    });
    assert.deepEqual(r.warnings, []);
  });

  it("an empty file, or empty values, mean defaults", () => {
    for (const yaml of ["", "description:\nconfig:\nenv:\n"]) {
      const r = parseManifest(yaml, FILE);
      assert.ok(r.ok);
      assert.deepEqual(r.manifest, {
        description: "",
        disabled: false,
        override: false,
        optIn: false,
        once: false,
        env: [],
        config: {},
        permissions: {},
        activation: "always",
        stateless: false,
      });
    }
  });

  it("names the file, the field, what is wrong", () => {
    const cases: [string, string][] = [
      ['once: "yes"', `${FILE}: once: expected true or false, got "yes"`],
      ["disabled: 1", `${FILE}: disabled: expected true or false, got 1`],
      ["override: no", `${FILE}: override: expected true or false, got "no"`],
      ["opt_in: [true]", `${FILE}: opt_in: expected true or false, got a list`],
      ["description: {a: 1}", `${FILE}: description: expected text, got a map`],
      [
        'name: "my plugin"',
        `${FILE}: name: expected letters, digits, ".", "_" or "-" (it names the plugin in config and commands), got "my plugin"`,
      ],
      [
        'condition: "contxt_above:70"',
        `${FILE}: condition: unknown condition "contxt_above:70" (did you mean context_above?)`,
      ],
      ["condition: history_gt:x", `${FILE}: condition: history_gt needs a number, got "x"`],
      [
        "env: MY_KEY",
        `${FILE}: env: expected a list of variable names, e.g. [MY_API_KEY] or ["*"], got "MY_KEY"`,
      ],
      [
        "env: [OK, 2BAD]",
        `${FILE}: env[1]: expected a variable name like MY_API_KEY, or "*", got "2BAD"`,
      ],
      ["config: [1, 2]", `${FILE}: config: expected a map of config values, got a list`],
      ["sdk: 0.1", `${FILE}: sdk: expected a version in quotes, e.g. sdk: "0.1.0", got 0.1`],
      ['sdk: "latest"', `${FILE}: sdk: expected a version like "0.1.0", got "latest"`],
      [
        "main: ../escape.ts",
        `${FILE}: main: expected a path inside the plugin folder, e.g. src/index.ts, got "../escape.ts"`,
      ],
      [
        "main: /abs/index.ts",
        `${FILE}: main: expected a path inside the plugin folder, e.g. src/index.ts, got "/abs/index.ts"`,
      ],
      ["permissions: { exec: {} }", `${FILE}: permissions.exec.reason: missing, expected text`],
      ["permissions: { camera: true }", `${FILE}: permissions: unknown field "camera"`],
      ["- just a list", `${FILE}: expected fields such as description: "…", got a list`],
      ["activation: lazy", `${FILE}: activation: expected "always" or "on-demand", got "lazy"`],
    ];
    for (const [yaml, message] of cases) assert.deepEqual(errorsOf(yaml), [message], yaml);
  });

  it("activation: always by default, on-demand when it says so", () => {
    const plain = parseManifest("description: x\n", FILE);
    const lazy = parseManifest("description: x\nactivation: on-demand\n", FILE);
    assert.ok(plain.ok && lazy.ok);
    assert.equal(plain.manifest.activation, "always");
    assert.equal(lazy.manifest.activation, "on-demand");
  });

  it("reports every bad field, one line each", () => {
    const errors = errorsOf('once: "yes"\ndisabled: 2\n');
    assert.equal(errors.length, 2);
    for (const e of errors) assert.ok(!e.includes("\n"));
  });

  it("YAML syntax errors carry line and column", () => {
    const [error] = errorsOf("description: ok\nenv: [A,\n");
    assert.match(error, /^\/p\/\.islet\/plugins\/foo\/plugin\.yaml:\d+:\d+: invalid YAML: /);
    assert.ok(!error.includes("\n"));
  });

  it("unknown fields are warnings with a suggestion", () => {
    const r = parseManifest("opt-in: true\nauthor: me\n", FILE);
    assert.ok(r.ok);
    assert.deepEqual(r.warnings.map(formatProblem), [
      `${FILE}: unknown field "opt-in" (ignored; did you mean opt_in?)`,
      `${FILE}: unknown field "author" (ignored)`,
    ]);
  });

  it("a broken manifest still yields its readable name and disabled flag", () => {
    const r = parseManifest('name: other\ndisabled: true\nonce: "yes"\n', FILE);
    assert.equal(r.ok, false);
    if (!r.ok) assert.deepEqual(r.partial, { name: "other", disabled: true });
  });

  it("readManifest reports an unreadable file", async () => {
    const r = await readManifest("/definitely/missing/plugin.yaml");
    assert.equal(r.ok, false);
    if (!r.ok)
      assert.deepEqual(r.errors.map(formatProblem), [
        "/definitely/missing/plugin.yaml: cannot read (ENOENT)",
      ]);
  });
});
