/**
 * API keys for `islet serve` (no OS keychain under plain Node): sealed with AES-256-GCM in
 * `<global home>/secrets.json` (mode 0600), under a random key kept in `<global home>/secrets.key`
 * (0600). No key is ever in a plain file; anyone who can read both files as you can read them,
 * and the protection line says so.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { writeAtomically } from "../config/atomic-write.ts";
import { EncryptedFileSecretStore, type SecretCipher } from "./encrypted-file.ts";
import type { ProblemSink } from "../host/problem.ts";

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

async function loadOrCreateKey(file: string): Promise<Buffer> {
  try {
    const key = Buffer.from((await readFile(file, "utf8")).trim(), "base64");
    if (key.length === KEY_BYTES) return key;
    throw new Error(`${file}: not a key Islet wrote; move it away and enter your API keys again`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const key = randomBytes(KEY_BYTES);
  await mkdir(path.dirname(file), { recursive: true });
  await writeAtomically(file, `${key.toString("base64")}\n`, { mode: 0o600 });
  return key;
}

/** AES-256-GCM under the home's key file, created on first use. */
export function homeKeyCipher(keyFile: string): SecretCipher {
  let key: Promise<Buffer> | null = null;
  const getKey = () => {
    key ??= loadOrCreateKey(keyFile);
    key.catch(() => (key = null));
    return key;
  };
  return {
    async encrypt(plain) {
      const iv = randomBytes(IV_BYTES);
      const c = createCipheriv("aes-256-gcm", await getKey(), iv);
      const body = Buffer.concat([c.update(plain, "utf8"), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), body]);
    },
    async decrypt(sealed) {
      const d = createDecipheriv("aes-256-gcm", await getKey(), sealed.subarray(0, IV_BYTES));
      d.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const body = sealed.subarray(IV_BYTES + TAG_BYTES);
      return Buffer.concat([d.update(body), d.final()]).toString("utf8");
    },
  };
}

export function homeSecretStore(globalHome: string, warn: ProblemSink): EncryptedFileSecretStore {
  return new EncryptedFileSecretStore(
    path.join(globalHome, "secrets.json"),
    homeKeyCipher(path.join(globalHome, "secrets.key")),
    "encrypted in a file only your user can read (secrets.json, key in secrets.key, both 0600 in the Islet home)",
    warn,
  );
}
