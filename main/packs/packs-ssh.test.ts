/**
 * The SSH side of the auth chain: the agent first, then ~/.ssh/id_ed25519, id_rsa, id_ecdsa, each
 * in BatchMode (never a prompt). A fake `ssh` first on PATH records how it was called and lets
 * only one key in; when it does, it runs git-upload-pack on this machine, as sshd would.
 */
import assert from "node:assert/strict";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { gitRepos, pluginFiles } from "./testing/git-servers.ts";
import { consenting, packEnv, state, type PackEnv } from "./testing/pack-env.ts";

/** A fake ssh accepting only `accept` ("agent" or a key file name), or failing host keys. */
async function fakeSsh(
  env: PackEnv,
  accept: string,
): Promise<{ path: string; calls(): Promise<string[]> }> {
  const bin = path.join(env.root, "fake-bin");
  const log = path.join(env.root, "ssh.log");
  await mkdir(bin, { recursive: true });
  await writeFile(
    path.join(bin, "ssh"),
    `#!/bin/sh
key=agent
prev=
for a in "$@"; do
  [ "$prev" = "-i" ] && key=$(basename "$a")
  prev=$a
done
echo "$key batch=$(echo "$*" | grep -c BatchMode=yes) agent=\${SSH_AUTH_SOCK:-none}" >> '${log}'
if [ "${accept}" = hostkey ]; then echo "Host key verification failed." >&2; exit 255; fi
if [ "$key" = "${accept}" ]; then
  for last; do :; done
  exec sh -c "$last"
fi
echo "git@fakehost: Permission denied (publickey)." >&2
exit 255
`,
  );
  await chmod(path.join(bin, "ssh"), 0o755);
  return {
    path: `${bin}:${env.env.PATH}`,
    calls: async () =>
      (await readFile(log, "utf8").catch(() => "")).trim().split("\n").filter(Boolean),
  };
}

async function withKeys(env: PackEnv): Promise<void> {
  await mkdir(path.join(env.userHome, ".ssh"), { recursive: true });
  for (const key of ["id_ed25519", "id_rsa"])
    await writeFile(path.join(env.userHome, ".ssh", key), "not a real key\n", { mode: 0o600 });
}

test("ssh: the agent, then each key file in BatchMode, until one is let in", async () => {
  await using repos = await gitRepos();
  const repo = await repos.create("sshpack", pluginFiles("", { name: "sshpack" }));
  await using env = await packEnv();
  await withKeys(env);
  const ssh = await fakeSsh(env, "id_rsa");
  const url = `git@fakehost:${repo.bare}`;
  const pack = await env
    .manager({ PATH: ssh.path, SSH_AUTH_SOCK: "/tmp/agent.sock" })
    .add({ source: url, scope: "global" }, consenting());
  assert.deepEqual(pack.plugins, ["sshpack"]);
  assert.equal(pack.origin?.url, url);
  assert.deepEqual(await ssh.calls(), [
    "agent batch=1 agent=/tmp/agent.sock",
    "id_ed25519 batch=1 agent=none",
    "id_rsa batch=1 agent=none",
  ]);
});

test("ssh: when nothing is let in, the error names what was tried; an unknown host key says how to accept it", async () => {
  await using repos = await gitRepos();
  const repo = await repos.create("locked", pluginFiles("", { name: "locked" }));
  await using env = await packEnv();
  await withKeys(env);
  const before = await state(env);
  const denied = await fakeSsh(env, "nothing");
  await assert.rejects(
    env
      .manager({ PATH: denied.path, SSH_AUTH_SOCK: "/tmp/agent.sock" })
      .add({ source: `git@fakehost:${repo.bare}`, scope: "global" }, consenting()),
    /cannot clone git@fakehost:.*locked\.git: access denied or the repository does not exist \(tried SSH agent, ~\/\.ssh\/id_ed25519, ~\/\.ssh\/id_rsa\): add your key to the SSH agent/,
  );
  const hostkey = await fakeSsh(env, "hostkey");
  await assert.rejects(
    env
      .manager({ PATH: hostkey.path })
      .add({ source: `ssh://git@fakehost:2222${repo.bare}`, scope: "global" }, consenting()),
    /ssh does not know the host key of fakehost:2222: run `ssh -T -p 2222 git@fakehost` once to check and accept it/,
  );
  assert.deepEqual(await state(env), before);
});
