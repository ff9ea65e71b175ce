/**
 * The QuickJS worker thread: every QuickJS plugin module of the process lives here, off the host
 * thread, so that a native built-in running past its budget holds this thread only — and the
 * host's watchdog can end it by terminating the worker (watchdog.ts, link.ts).
 *
 * Runs as a .ts file under Node (type stripping) and as out/main/quickjs-worker.js in the
 * Electron bundle (electron.vite.config.ts). workerData carries the shared entry slots and the
 * worker's end of the message channel (channel.ts).
 */
import { parentPort, workerData } from "node:worker_threads";
import { faultData, type FromWorker, type ToWorker } from "./protocol.ts";
import { loadQuickJsModule, type QuickJsModule } from "./module.ts";
import { joinChannel, type ChannelEnd } from "./channel.ts";
import { EntryAnnouncer } from "./watchdog.ts";
import { PortHost } from "./worker-host.ts";
import { SandboxFault } from "../types.ts";
import { lazyTexts } from "../lazy-fields.ts";

if (!parentPort) throw new Error("quickjs-worker runs as a worker thread only");

/** After handling messages, how long to look out for the next before sleeping (see channel). */
const LINGER_MS = 0.2;

const data = workerData as { entries: SharedArrayBuffer; channel: ChannelEnd };
const announcer = new EntryAnnouncer(data.entries);
const channel = joinChannel(data.channel, (message) => {
  handle(message);
  lingerSoon();
});
const modules = new Map<number, { host: PortHost; module?: QuickJsModule }>();

function post(message: FromWorker): void {
  try {
    channel.post(message);
  } catch {
    // Only a fault's cause can fail to clone: send the fault without it.
    if (message.t === "result" && !message.ok) {
      channel.post({ ...message, fault: { ...message.fault, cause: undefined } });
    }
  }
}

function load(message: Extract<ToWorker, { t: "load" }>): void {
  const id = message.module;
  const host = new PortHost(id, post, message);
  const entry: { host: PortHost; module?: QuickJsModule } = { host };
  modules.set(id, entry);
  loadQuickJsModule(
    { code: message.code, filename: message.filename, limits: message.limits, host },
    {
      stopped: (fault) => {
        // The module is shutting itself down: only drop it here.
        if (modules.get(id) === entry) modules.delete(id);
        host.dispose();
        post({ t: "died", module: id, fault: faultData(fault) });
      },
      watch: { enter: (budgetMs) => announcer.enter(id, budgetMs), leave: () => announcer.leave() },
    },
  ).then(
    (module) => {
      // Disposed while loading: the host no longer waits for it.
      if (modules.get(id) !== entry) return module.dispose();
      entry.module = module;
      post({
        t: "loaded",
        module: id,
        functions: [...module.arity],
        values: module.values,
        heap: module.heapUsed(),
      });
    },
    (fault: unknown) => {
      if (modules.get(id) === entry) modules.delete(id);
      host.dispose();
      post({ t: "loadFailed", module: id, fault: faultData(fault) });
    },
  );
}

function call(message: Extract<ToWorker, { t: "call" }>): void {
  const { module: id, call: callId } = message;
  const module = modules.get(id)?.module;
  // A call can cross the news of the module's death on its way here.
  const answer = module
    ? module.callJson(
        message.name,
        message.args,
        message.lazy && lazyTexts(message.lazy),
        message.deferred,
      )
    : Promise.reject(new SandboxFault("disposed", "the sandbox was disposed"));
  answer.then(
    (value) => post({ t: "result", module: id, call: callId, ok: true, value }),
    (fault: unknown) =>
      post({ t: "result", module: id, call: callId, ok: false, fault: faultData(fault) }),
  );
}

function forget(id: number): void {
  const entry = modules.get(id);
  if (!entry) return;
  modules.delete(id);
  entry.host.dispose();
  entry.module?.dispose();
}

let lingering = false;

/**
 * Once the messages' own work is done (a setImmediate runs after their promise jobs, so results
 * are posted by then), look out for the next message for a moment before the event loop sleeps.
 */
function lingerSoon(): void {
  if (lingering) return;
  lingering = true;
  setImmediate(() => {
    lingering = false;
    channel.takeNext(LINGER_MS);
  });
}

function handle(message: ToWorker): void {
  switch (message.t) {
    case "load":
      return load(message);
    case "call":
      return call(message);
    case "answer":
      return modules
        .get(message.module)
        ?.host.answer(message.request, message.ok, message.ok ? message.json : message.message);
    case "heap":
      return post({
        t: "heap",
        module: message.module,
        bytes: modules.get(message.module)?.module?.heapUsed() ?? 0,
      });
    case "dispose":
      return forget(message.module);
  }
}
