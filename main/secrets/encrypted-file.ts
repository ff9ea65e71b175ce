/**
 * The secret store as one JSON file of sealed values (the desktop app seals them with Electron
 * safeStorage), and how stored keys join the engine's provider environment.
 */
import { z } from "zod";
import { JsonStore } from "../config/json-store.ts";
import type { SecretStore } from "../host/secrets.ts";
import { formatProblem, type ProblemSink } from "../host/problem.ts";

/** What encrypts the values (Electron safeStorage in the app). */
export interface SecretCipher {
  encrypt(plain: string): Promise<Buffer>;
  decrypt(sealed: Buffer): Promise<string>;
}

const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SecretsFile = z.object({
  version: z.literal(1),
  /** name → base64 of the sealed value. */
  secrets: z.record(z.string().regex(SECRET_NAME), z.string()),
});
type SecretsFile = z.infer<typeof SecretsFile>;

/** Sealed values in one JSON file (mode 0600), written whole through a rename. */
export class EncryptedFileSecretStore implements SecretStore {
  readonly protection: string;
  readonly #cipher: SecretCipher;
  readonly #store: JsonStore<SecretsFile>;

  constructor(
    file: string,
    cipher: SecretCipher,
    protection: string,
    warn: ProblemSink = (problem) => process.stderr.write(`${formatProblem(problem)}\n`),
  ) {
    this.#cipher = cipher;
    this.protection = protection;
    this.#store = new JsonStore(file, SecretsFile, () => ({ version: 1, secrets: {} }), warn, {
      mode: 0o600,
    });
  }

  get file(): string {
    return this.#store.file;
  }

  async names(): Promise<string[]> {
    return Object.keys((await this.#store.read()).secrets).sort();
  }

  async get(name: string): Promise<string | undefined> {
    const sealed = (await this.#store.read()).secrets[name];
    if (sealed === undefined) return undefined;
    try {
      return await this.#cipher.decrypt(Buffer.from(sealed, "base64"));
    } catch {
      throw new Error(
        `${this.file}: the key ${name} cannot be decrypted on this machine; enter it again in Settings`,
      );
    }
  }

  async set(name: string, value: string): Promise<void> {
    if (!SECRET_NAME.test(name))
      throw new Error(
        `secret name "${name.slice(0, 60)}": use letters, digits and _ (like OPENAI_API_KEY)`,
      );
    const sealed = (await this.#cipher.encrypt(value)).toString("base64");
    await this.#store.update((data) => {
      data.secrets[name] = sealed;
    });
  }

  async delete(name: string): Promise<boolean> {
    let found = false;
    await this.#store.update((data) => {
      found = Object.hasOwn(data.secrets, name);
      delete data.secrets[name];
    });
    return found;
  }
}

/** Stored keys under the environment and the env file (those win, as set by the user there). */
export async function secretsForEnv(
  store: SecretStore | undefined,
): Promise<Record<string, string>> {
  if (!store) return {};
  const out: Record<string, string> = {};
  for (const name of await store.names()) {
    const value = await store.get(name).catch(() => undefined);
    if (value !== undefined) out[name] = value;
  }
  return out;
}
