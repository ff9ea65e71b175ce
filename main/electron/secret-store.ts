/**
 * API keys in the desktop app: sealed with Electron safeStorage (the OS keychain / DPAPI /
 * libsecret) in the app's user-data folder. On Linux without a keyring safeStorage falls back to
 * a fixed key ("basic_text"): the store still works, and its protection line says it is not
 * secure there (ENGINEERING.md §5).
 */
import path from "node:path";
import { app, safeStorage } from "electron";
import { EncryptedFileSecretStore } from "../secrets/encrypted-file.ts";
import { formatProblem } from "../host/problem.ts";

export async function desktopSecretStore(): Promise<EncryptedFileSecretStore | undefined> {
  if (!(await safeStorage.isAsyncEncryptionAvailable())) return undefined;
  const basic =
    process.platform === "linux" && safeStorage.getSelectedStorageBackend() === "basic_text";
  return new EncryptedFileSecretStore(
    path.join(app.getPath("userData"), "secrets.json"),
    {
      encrypt: (plain) => safeStorage.encryptStringAsync(plain),
      decrypt: async (sealed) => (await safeStorage.decryptStringAsync(sealed)).result,
    },
    basic
      ? "not secure on this system: no keyring was found, so keys are only obfuscated (install gnome-keyring or KWallet)"
      : "encrypted with the operating system's keychain",
    (problem) => console.warn(`[islet] ${formatProblem(problem)}`),
  );
}
