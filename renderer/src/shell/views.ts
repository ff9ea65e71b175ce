/** The app's top-level views, in sidebar order. */
export type ViewId = "chat" | "models" | "plugins" | "editor" | "settings";
