/**
 * Islet's Monaco themes. Monaco's own vs / vs-dark put comments, line numbers and a few tokens
 * under WCAG AA's 4.5:1 on the editor background; these keep every colour at 4.5:1 or better
 * (checked by the views' axe spec) on the app's own surfaces.
 */
import type { editor } from "monaco-editor";

export const LIGHT_THEME = "islet-light";
export const DARK_THEME = "islet-dark";

// Backgrounds: the app's --surface (styles.css), so the editor sits in the page.
const light: editor.IStandaloneThemeData = {
  base: "vs",
  inherit: true,
  rules: [
    { token: "comment", foreground: "2e7d32" }, // 5.1:1 on #ffffff
    { token: "number", foreground: "0b6b47" },
    { token: "type", foreground: "1f6e86" },
    { token: "regexp", foreground: "811f3f" },
    { token: "attribute.name", foreground: "b3261e" },
    { token: "invalid", foreground: "b3261e" },
  ],
  colors: {
    "editor.background": "#ffffff",
    "editorGutter.background": "#ffffff",
    "editorLineNumber.foreground": "#646b78", // 5.4:1
    "editorLineNumber.activeForeground": "#171a20",
    "editorWhitespace.foreground": "#9aa1ad",
  },
};

const dark: editor.IStandaloneThemeData = {
  base: "vs-dark",
  inherit: true,
  rules: [
    { token: "comment", foreground: "86b37a" }, // 6.9:1 on #1c1f25
    { token: "keyword", foreground: "6aa8e0" },
    { token: "regexp", foreground: "e08a8a" },
    { token: "invalid", foreground: "ff8a80" },
  ],
  colors: {
    "editor.background": "#1c1f25",
    "editorGutter.background": "#1c1f25",
    "editorLineNumber.foreground": "#8a92a0", // 5.3:1
    "editorLineNumber.activeForeground": "#e6e8ec",
    "editorWhitespace.foreground": "#5c6472",
  },
};

export function defineThemes(api: { editor: { defineTheme: typeof editor.defineTheme } }): void {
  api.editor.defineTheme(LIGHT_THEME, light);
  api.editor.defineTheme(DARK_THEME, dark);
}

export const themeFor = (scheme: "light" | "dark"): string =>
  scheme === "dark" ? DARK_THEME : LIGHT_THEME;
