// Lint rules that keep the architecture visible (SPEC §2): electron stays in main/electron/, raw
// IPC in the two bridge files, imports follow the layering (scripts/eslint-layers.js), promises
// are never left floating. main/layering.test.ts proves the layering rules fire.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";
import islet from "./scripts/eslint-layers.js";

export default tseslint.config(
  { ignores: ["node_modules/**", "out/**", "dist/**", "bench/results/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": [
        "error",
        {
          // node:test's describe/it/test return promises the runner itself awaits.
          allowForKnownSafeCalls: [
            { from: "package", package: "node:test", name: ["describe", "it", "test", "suite"] },
          ],
        },
      ],
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
    },
  },
  {
    // Electron stays in main/electron/ (and the preload), for TypeScript and JavaScript alike.
    files: ["**/*.ts", "**/*.tsx", "**/*.js", "**/*.mjs", "**/*.cjs"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "electron", message: "Only main/electron/ may import electron (SPEC §2)." },
            {
              name: "electron-store",
              message:
                "electron-store imports electron: use it in main/electron/ only (ENGINEERING §5).",
            },
          ],
          patterns: [
            {
              group: ["electron/*"],
              message: "Only main/electron/ may import electron (SPEC §2).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["main/electron/**", "preload/**", "electron.vite.config.ts"],
    rules: { "no-restricted-imports": "off" },
  },
  {
    // Which folder may import which, and ipcMain/ipcRenderer only in the bridge's two files.
    files: ["**/*.ts", "**/*.tsx", "**/*.js", "**/*.mjs", "**/*.cjs"],
    plugins: { islet },
    rules: { "islet/layers": "error", "islet/raw-ipc": "error" },
  },
  {
    files: ["renderer/**"],
    languageOptions: { globals: { ...globals.browser } },
  },
  { files: ["**/*.js", "**/*.mjs", "**/*.cjs"], languageOptions: { globals: { ...globals.node } } },
);
