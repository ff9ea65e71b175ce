import assert from "node:assert/strict";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { createEngine } from "../engine/bootstrap.ts";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import { EncryptedFileSecretStore, type SecretCipher } from "./encrypted-file.ts";

/** A real cipher (AES-256-GCM) standing in for the OS keychain, which needs Electron. */
function aesCipher(key = randomBytes(32)): SecretCipher {
  return {
    async encrypt(plain) {
      const iv = randomBytes(12);
      const c = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([c.update(plain, "utf8"), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), body]);
    },
    async decrypt(sealed) {
      const d = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, 12));
      d.setAuthTag(sealed.subarray(12, 28));
      return Buffer.concat([d.update(sealed.subarray(28)), d.final()]).toString("utf8");
    },
  };
}

test("stored keys are sealed on disk (0600), listed by name, and one bad entry says what to do", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "islet-secrets-"));
  try {
    const file = path.join(dir, "secrets.json");
    const store = new EncryptedFileSecretStore(file, aesCipher(), "test cipher");
    await store.set("OPENAI_API_KEY", "sk-very-secret");
    await store.set("ANTHROPIC_API_KEY", "sk-ant-secret");
    assert.deepEqual(await store.names(), ["ANTHROPIC_API_KEY", "OPENAI_API_KEY"]);
    assert.equal(await store.get("OPENAI_API_KEY"), "sk-very-secret");
    const text = await readFile(file, "utf8");
    assert.doesNotMatch(text, /sk-very-secret|sk-ant-secret/);
    if (process.platform !== "win32") assert.equal((await stat(file)).mode & 0o777, 0o600);
    await assert.rejects(store.set("bad name; rm", "x"), /use letters, digits and _/);
    assert.equal(await store.delete("ANTHROPIC_API_KEY"), true);
    assert.deepEqual(await store.names(), ["OPENAI_API_KEY"]);
    // Sealed by another machine's key: not readable, and the message says what to do.
    const other = new EncryptedFileSecretStore(file, aesCipher(), "other");
    await assert.rejects(
      other.get("OPENAI_API_KEY"),
      /cannot be decrypted on this machine; enter it again in Settings/,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("a stored key reaches the provider; the environment and the env file still win", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "islet-secrets-"));
  const server = await startFakeOpenAI([{ text: ["one"] }, { text: ["two"] }]);
  try {
    const home = path.join(dir, "home");
    await mkdir(path.join(home, "config"), { recursive: true });
    await writeFile(
      path.join(home, "config", "providers.yaml"),
      `default: { provider: work, model: m }\nproviders:\n  work: { type: openai-compatible, base_url: "${server.url}", api_key_env: WORK_KEY }\n`,
    );
    const secrets = new EncryptedFileSecretStore(path.join(dir, "s.json"), aesCipher(), "test");
    await secrets.set("WORK_KEY", "sk-from-store");
    const open = async (env: Record<string, string>) => {
      const engine = await createEngine({ home, workdir: dir, env, secrets, warn: () => {} });
      const conv = await engine.open({ emit: () => {} });
      await conv.submit("hi");
      await conv.close();
      await engine.close();
    };
    await open({});
    assert.equal(server.chatRequests[0].headers.authorization, "Bearer sk-from-store");
    await open({ WORK_KEY: "sk-from-env" });
    assert.equal(server.chatRequests[1].headers.authorization, "Bearer sk-from-env");
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
});
