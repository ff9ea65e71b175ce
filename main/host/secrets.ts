/**
 * API keys the user stored in the app (SPEC §4): a host port, so the engine never knows how they
 * are kept. The desktop app encrypts them with the OS (Electron safeStorage,
 * main/secrets/encrypted-file.ts); headless hosts have none and read keys from the environment
 * or the env file. Values reach only the engine's provider environment — never logs, sessions,
 * plugins (unless a grant names them) or the UI, which sees names only.
 */
export interface SecretStore {
  /** Names only, for the settings page. */
  names(): Promise<string[]>;
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<boolean>;
  /** One line on how the values are protected ("encrypted with the OS keychain", or a warning). */
  readonly protection: string;
}
