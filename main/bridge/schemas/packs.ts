/**
 * Plugin packs and catalogs in the app (SPEC §7): `catalog/*` lists the catalogs' packs (with
 * whether each is installed) and edits the list of catalogs in settings; `packs/*` installs,
 * updates and removes packs, with `packs/progress` events to the client that asked and the
 * consent question (`pack-install`, `pack-update`) asked of that client alone.
 * Plain zod: the renderer bundles it.
 */
import { z } from "zod";
import { ReloadResult } from "./reload.ts";

const Scope = z.enum(["global", "project"]);
const PackName = z.string().min(1).max(200);
/** Chosen by the client so it can follow `packs/progress` before the call answers. */
const OperationId = z.string().min(1).max(100);

export const PackOriginView = z.strictObject({
  url: z.string(),
  ref: z.string().nullable(),
  subpath: z.string().nullable(),
  commit: z.string(),
  installedAt: z.string(),
  updatedAt: z.string().nullable(),
  vendored: z.boolean(),
});

export const InstalledPackView = z.strictObject({
  name: z.string(),
  dir: z.string(),
  scope: Scope,
  /** Null for a copy of a local folder and for hand-made folders (no update path). */
  origin: PackOriginView.nullable(),
  plugins: z.array(z.string()),
  /**
   * What its Claude Code marketplace lists from other repositories, each installed as a pack of
   * its own (`packs/install` with `source` this pack's name and `plugin` the entry's name).
   */
  remote: z
    .array(z.strictObject({ name: z.string(), description: z.string(), source: z.string() }))
    .optional(),
});
export type InstalledPackView = z.infer<typeof InstalledPackView>;

export const CatalogStatusView = z.strictObject({
  source: z.string(),
  kind: z.enum(["default", "file", "url"]),
  /** "cached": the URL could not be fetched now; its last copy is listed. */
  state: z.enum(["ok", "cached", "error"]),
  entries: z.number().int().nonnegative(),
  /** The one line saying what is wrong (or why the copy is a cached one). */
  error: z.string().nullable(),
  /** One line per entry left out. */
  problems: z.array(z.string()),
  fetchedAt: z.string().nullable(),
});
export type CatalogStatusView = z.infer<typeof CatalogStatusView>;

export const CatalogPackView = z.strictObject({
  name: z.string(),
  description: z.string(),
  url: z.string(),
  ref: z.string().nullable(),
  subpath: z.string().nullable(),
  tags: z.array(z.string()),
  author: z.string().nullable(),
  /** The catalog listing it. */
  catalog: z.string(),
  /** Installed from the same repository (origin URL and subpath), in either scope. */
  installed: InstalledPackView.nullable(),
});
export type CatalogPackView = z.infer<typeof CatalogPackView>;

export const CatalogView = z.strictObject({
  catalogs: z.array(CatalogStatusView),
  packs: z.array(CatalogPackView),
  /** Every tag, most used first. */
  tags: z.array(z.string()),
  /** Installed packs no catalog lists (added from a URL or by hand): Update and Remove apply. */
  others: z.array(InstalledPackView),
  /** The settings file holding `catalogs:`. */
  file: z.string(),
});
export type CatalogView = z.infer<typeof CatalogView>;

const Operation = z.strictObject({ operation: OperationId.optional() });

/** Longer than any link the engine accepts (main/packs/link.ts), so it is refused with a reason. */
export const LinkQuery = z.string().max(16_384);
export const InstallLinkView = z.strictObject({
  source: z.string(),
  ref: z.string().optional(),
  subpath: z.string().optional(),
});
export type InstallLinkView = z.infer<typeof InstallLinkView>;

/** How an operation ended: done, or cancelled at the consent question (nothing changed). */
const Finished = z.enum(["done", "cancelled"]);

export const PACKS_CALLS = {
  /** The catalogs' packs and each catalog's state; `refresh` fetches URL catalogs again. */
  "catalog/list": {
    request: z.strictObject({ refresh: z.boolean().optional() }).optional(),
    response: CatalogView,
  },
  /** Adds a catalog (a file path or an http(s) URL) to settings; emits `catalog/changed`. */
  "catalog/add": {
    request: z.strictObject({ source: z.string().min(1).max(2000) }),
    response: CatalogView,
  },
  "catalog/remove": {
    request: z.strictObject({ source: z.string().min(1).max(2000) }),
    response: CatalogView,
  },
  "packs/list": {
    request: z.undefined(),
    response: z.strictObject({ packs: z.array(InstalledPackView) }),
  },
  /**
   * Installs a pack (git URL, owner/repo or local path) after the `pack-install` question, asked
   * of this client; the running engine loads its plugins before the call answers.
   */
  "packs/install": {
    request: Operation.extend({
      source: z.string().trim().min(1).max(2000),
      ref: z.string().trim().min(1).max(200).optional(),
      subpath: z.string().trim().min(1).max(500).optional(),
      name: PackName.optional(),
      scope: Scope,
      /** An install link asked for it: checked as a link, and its consent says so. */
      via: z.literal("link").optional(),
      /** The plugin the Claude Code marketplace at `source` lists from another repository. */
      plugin: z.string().trim().min(1).max(200).optional(),
    }),
    response: z.strictObject({
      operation: OperationId,
      status: Finished,
      pack: InstalledPackView.nullable(),
      reports: z.array(ReloadResult),
    }),
  },
  /**
   * An install link's query (`source=…&ref=…&subpath=…`), checked by the engine: what the install
   * dialog shows, or the one line saying why the link was refused. Installs nothing.
   */
  "packs/checkLink": {
    request: z.strictObject({ query: LinkQuery }),
    response: z.strictObject({ link: InstallLinkView.nullable(), refused: z.string().nullable() }),
  },
  /** Fetches, shows what changed (`pack-update`, asked of this client), then swaps it in. */
  "packs/update": {
    request: Operation.extend({ name: PackName, force: z.boolean().optional() }),
    response: z.strictObject({
      operation: OperationId,
      status: Finished,
      /** False when it was already up to date. */
      changed: z.boolean(),
      from: z.string().nullable(),
      to: z.string().nullable(),
      pack: InstalledPackView.nullable(),
      reports: z.array(ReloadResult),
    }),
  },
  /** Removes a pack (or the pack holding a plugin of that name); its plugins unload at once. */
  "packs/remove": {
    request: Operation.extend({ name: PackName }),
    response: z.strictObject({
      operation: OperationId,
      status: Finished,
      pack: InstalledPackView.nullable(),
      reports: z.array(ReloadResult),
    }),
  },
} as const;

export const PackProgressEvent = z.strictObject({
  operation: OperationId,
  /** The pack's name, or the source while the name is not known yet. */
  pack: z.string(),
  phase: z.enum([
    "resolving",
    "cloning",
    "fetching",
    "validating",
    "vendoring",
    "building",
    "consent",
    "installing",
    "removing",
    "done",
  ]),
  message: z.string(),
  fraction: z.number().min(0).max(1).optional(),
});
export type PackProgressEvent = z.infer<typeof PackProgressEvent>;

export const PACKS_EVENTS = {
  /** The desktop app was opened by an `islet://install?…` link: its query, to the main window. */
  "app/installLink": z.strictObject({ query: LinkQuery }),
  /** How an operation this client started is going (to that client only). */
  "packs/progress": PackProgressEvent,
  /** The catalogs in settings or the installed packs changed: lists are stale (to everyone). */
  "catalog/changed": z.strictObject({ cause: z.enum(["catalogs", "packs"]) }),
} as const;
