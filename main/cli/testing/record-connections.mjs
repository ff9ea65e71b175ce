// Preloaded into a CLI child process by tests (node --import): records every outgoing socket
// connection and DNS lookup to the file named by ISLET_TEST_NET_LOG, one JSON line each.
import dns from "node:dns";
import { appendFileSync } from "node:fs";
import net from "node:net";

const log = process.env.ISLET_TEST_NET_LOG;
const record = (entry) => appendFileSync(log, `${JSON.stringify(entry)}\n`);

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const first = args[0];
  const opts = Array.isArray(first) ? first[0] : first;
  if (opts && typeof opts === "object")
    record({ kind: "connect", host: opts.host ?? "localhost", port: opts.port, path: opts.path });
  else
    record({
      kind: "connect",
      host: typeof args[1] === "string" ? args[1] : "localhost",
      port: first,
    });
  return connect.apply(this, args);
};

for (const name of ["lookup", "resolve", "resolve4", "resolve6"]) {
  const original = dns[name];
  dns[name] = function (hostname, ...rest) {
    record({ kind: "dns", fn: name, host: hostname });
    return original.call(this, hostname, ...rest);
  };
}
