// The kind table drives every place that lists provider kinds: providers.yaml's schema, the
// bridge's schemas, Settings' form and the resolver cover exactly its rows.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ModelServer } from "../bridge/schemas/models.ts";
import { ProviderView, SettingsSaveProvider } from "../bridge/schemas/settings.ts";
import { parseProvidersYaml } from "../providers/config.ts";
import { createProvider, keyVariable, PROVIDER_FACTORIES } from "../providers/kinds.ts";
import {
  PROVIDER_FORM_KINDS,
  PROVIDER_KIND_TABLE,
  PROVIDER_KINDS,
  providerKind,
  type ProviderKind,
} from "./provider-kinds.ts";

const kinds = Object.keys(PROVIDER_KIND_TABLE);

test("provider kinds: the bridge's schemas take exactly the table's kinds", () => {
  assert.deepEqual(PROVIDER_KINDS, kinds);
  assert.deepEqual(ProviderView.shape.type.options, kinds);
  assert.deepEqual(ModelServer.shape.kind.options, kinds);
  assert.deepEqual(SettingsSaveProvider.request.shape.type.options, kinds);
});

test("provider kinds: providers.yaml takes every kind, and names them all for a wrong one", () => {
  for (const kind of PROVIDER_KINDS) {
    const url = providerKind(kind).urlRequired?.example;
    const yaml = `providers:\n  p:\n    type: ${kind}\n${url ? `    base_url: ${url}\n` : ""}`;
    assert.equal(parseProvidersYaml(yaml, "f").providers.p.type, kind);
  }
  assert.throws(
    () => parseProvidersYaml("providers:\n  p:\n    type: nope\n", "f"),
    new RegExp(`expected one of ${PROVIDER_KINDS.join(", ")}, got`),
  );
});

test("provider kinds: Settings' form offers the kinds with a form row, in their order", () => {
  const offered = PROVIDER_KINDS.filter((k) => providerKind(k).form);
  assert.deepEqual(PROVIDER_FORM_KINDS.map((k) => k.kind).sort(), [...offered].sort());
  const orders = PROVIDER_FORM_KINDS.map((k) => providerKind(k.kind).form?.order ?? 0);
  assert.deepEqual(
    orders,
    [...orders].sort((a, b) => a - b),
  );
  for (const k of PROVIDER_FORM_KINDS) assert.equal(k.label, providerKind(k.kind).label);
});

test("provider kinds: the resolver builds every kind, with the table's URL and key", () => {
  assert.deepEqual(Object.keys(PROVIDER_FACTORIES).sort(), [...kinds].sort());
  for (const kind of PROVIDER_KINDS) {
    const row = providerKind(kind);
    const config = {
      name: `my-${kind}`,
      type: kind as ProviderKind,
      tools: "auto" as const,
      source: "",
      ...(row.urlRequired ? { baseUrl: "https://models.example.com/v1" } : {}),
    };
    const env = row.key ? { [row.key.variable]: "key" } : {};
    const provider = createProvider(config, env, "/models");
    assert.equal(provider.kind, kind);
    if (row.defaultUrl) assert.equal(provider.baseUrl, row.defaultUrl);
    assert.equal(keyVariable(config), row.key?.variable ?? null);
    if (row.key?.required)
      assert.throws(() => createProvider(config, {}, "/models"), new RegExp(row.key.variable));
  }
});
