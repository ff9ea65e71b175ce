/**
 * Test support: real git repositories in a temporary folder, built commit by commit. Each working
 * repository has a bare twin under `served/` that every commit, tag and branch is pushed to, so
 * file://, `git daemon` and `git http-backend` (see git-servers.ts) always serve the latest.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A fixed identity and no user or system config, so tests behave the same on every machine. */
export function gitTestEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_AUTHOR_NAME: "Test Author",
    GIT_AUTHOR_EMAIL: "author@example.test",
    GIT_COMMITTER_NAME: "Test Author",
    GIT_COMMITTER_EMAIL: "author@example.test",
    GIT_TERMINAL_PROMPT: "0",
    ...extra,
  };
}

/** Runs git in `cwd` and returns its stdout, trimmed. */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run("git", ["-c", "commit.gpgsign=false", ...args], {
    cwd,
    env: gitTestEnv(),
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout.trim();
}

/** Files to write, relative to the repository: text or bytes, `null` to delete, `{ symlink }` for a link. */
export type RepoFiles = Record<string, string | Uint8Array | null | { symlink: string }>;

export interface WorkRepo {
  name: string;
  /** The working copy. */
  dir: string;
  /** The bare repository that is served (`<root>/served/<name>.git`). */
  bare: string;
  /** file:// URL of the bare repository. */
  fileUrl: string;
  /** Writes (or deletes) files, commits them with `message`, pushes; returns the new commit. */
  commit(message: string, files?: RepoFiles): Promise<string>;
  /** Tags HEAD (lightweight) and pushes the tag. */
  tag(name: string): Promise<void>;
  /** Creates `name` at HEAD and switches to it (commits then go there and are pushed there). */
  branch(name: string): Promise<void>;
  /** Switches to an existing branch. */
  checkout(name: string): Promise<void>;
  /** The commit HEAD points at. */
  head(): Promise<string>;
  /** Any other git command in the working copy. */
  git(...args: string[]): Promise<string>;
}

export interface GitRepos {
  /** The temporary folder holding everything. */
  root: string;
  /** Folder of the bare repositories: what the servers export (`--base-path`, GIT_PROJECT_ROOT). */
  served: string;
  /** A new repository on branch `main`, with a first commit of `files` when given. */
  create(name: string, files?: RepoFiles): Promise<WorkRepo>;
  /** Removes the temporary folder. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

export async function writeRepoFiles(dir: string, files: RepoFiles): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(dir, rel);
    if (content === null) {
      await rm(file, { recursive: true, force: true });
      continue;
    }
    await mkdir(path.dirname(file), { recursive: true });
    if (typeof content === "string" || content instanceof Uint8Array)
      await writeFile(file, content);
    else {
      await rm(file, { force: true });
      await symlink(content.symlink, file);
    }
  }
}

async function makeRepo(root: string, served: string, name: string): Promise<WorkRepo> {
  const dir = path.join(root, "work", name);
  const bare = path.join(served, `${name}.git`);
  await mkdir(dir, { recursive: true });
  await git(dir, "init", "--quiet", "--initial-branch=main");
  await git(root, "init", "--quiet", "--bare", "--initial-branch=main", bare);
  await git(dir, "remote", "add", "origin", bare);
  const repo: WorkRepo = {
    name,
    dir,
    bare,
    fileUrl: pathToFileURL(bare).href,
    async commit(message, files = {}) {
      await writeRepoFiles(dir, files);
      await git(dir, "add", "--all");
      await git(dir, "commit", "--quiet", "--allow-empty", "-m", message);
      const branch = await git(dir, "rev-parse", "--abbrev-ref", "HEAD");
      await git(dir, "push", "--quiet", "origin", branch);
      return git(dir, "rev-parse", "HEAD");
    },
    async tag(tagName) {
      await git(dir, "tag", tagName);
      await git(dir, "push", "--quiet", "origin", `refs/tags/${tagName}`);
    },
    async branch(branchName) {
      await git(dir, "switch", "--quiet", "-c", branchName);
      await git(dir, "push", "--quiet", "origin", branchName);
    },
    async checkout(branchName) {
      await git(dir, "switch", "--quiet", branchName);
    },
    head: () => git(dir, "rev-parse", "HEAD"),
    git: (...args) => git(dir, ...args),
  };
  return repo;
}

/** A temporary folder for repositories; `await using repos = await gitRepos()` cleans it up. */
export async function gitRepos(): Promise<GitRepos> {
  const root = await mkdtemp(path.join(tmpdir(), "islet-git-"));
  const served = path.join(root, "served");
  await mkdir(served, { recursive: true });
  const close = () => rm(root, { recursive: true, force: true });
  return {
    root,
    served,
    async create(name, files) {
      const repo = await makeRepo(root, served, name);
      if (files) await repo.commit("Initial commit", files);
      return repo;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** What a test plugin's beforeChat says; an e2e can look for it in the model's request. */
export function pluginGreeting(name: string, version = "1"): string {
  return `[${name}] hello from version ${version}`;
}

/**
 * The files of one Islet plugin under `dir` ("" = the repository root): plugin.yaml and an
 * index.ts whose beforeChat injects `pluginGreeting(name, version)`. `yaml` adds lines to
 * plugin.yaml (e.g. `sdk: "0.1.0"` or a `permissions:` block); `code` replaces index.ts.
 */
export function pluginFiles(
  dir: string,
  opts: { name?: string; version?: string; yaml?: string; code?: string } = {},
): Record<string, string> {
  const name = opts.name ?? (path.basename(dir) || "plugin");
  const at = (f: string) => (dir ? `${dir}/${f}` : f);
  const code =
    opts.code ??
    [
      'import type { BeforeChatContext, Result } from "@islet/sdk";',
      "export function beforeChat(_ctx: BeforeChatContext): Result | undefined {",
      `  return { message: ${JSON.stringify(pluginGreeting(name, opts.version))}, role: "user", eject: true };`,
      "}",
      "",
    ].join("\n");
  return {
    [at("plugin.yaml")]: `description: "${name} test plugin"\n${opts.yaml ?? ""}`,
    [at("index.ts")]: code,
  };
}

/** A pack: `count` plugins named `${prefix}1…` in folders under `under` (default the root). */
export function packFiles(count: number, prefix = "plugin", under = ""): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 1; i <= count; i++) {
    const name = `${prefix}${i}`;
    Object.assign(files, pluginFiles(under ? `${under}/${name}` : name));
  }
  return files;
}
