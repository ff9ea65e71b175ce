// A tiny real language server over stdio for tests: each line holding "TODO" is a warning. It
// answers initialize and shutdown, publishes diagnostics on didOpen, didChange and didSave
// (once per version), and exits on exit. STARTS_LOG, when set, gets a line per start.
import { appendFileSync } from "node:fs";

if (process.env.STARTS_LOG) appendFileSync(process.env.STARTS_LOG, `${process.pid}\n`);
let buffer = Buffer.alloc(0);
const texts = new Map();

function send(message) {
  const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...message }), "utf8");
  process.stdout.write(`Content-Length: ${body.length}\r\n\r\n`);
  process.stdout.write(body);
}

function publish(uri) {
  const diagnostics = [];
  (texts.get(uri) ?? "").split("\n").forEach((line, i) => {
    const at = line.indexOf("TODO");
    if (at !== -1)
      diagnostics.push({
        range: { start: { line: i, character: at }, end: { line: i, character: at + 4 } },
        severity: 2,
        message: "TODO left in the code",
      });
  });
  send({ method: "textDocument/publishDiagnostics", params: { uri, diagnostics } });
}

function handle(m) {
  if (m.method === "initialize")
    send({ id: m.id, result: { capabilities: { textDocumentSync: 1 } } });
  else if (m.method === "shutdown") send({ id: m.id, result: null });
  else if (m.method === "exit") process.exit(0);
  else if (m.method === "textDocument/didOpen") {
    texts.set(m.params.textDocument.uri, m.params.textDocument.text);
    publish(m.params.textDocument.uri);
  } else if (m.method === "textDocument/didChange") {
    texts.set(m.params.textDocument.uri, m.params.contentChanges.at(-1).text);
    publish(m.params.textDocument.uri);
  }
}

process.stdin.on("data", (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const end = buffer.indexOf("\r\n\r\n");
    if (end === -1) return;
    const size = Number(/Content-Length: *(\d+)/i.exec(buffer.subarray(0, end).toString())[1]);
    if (buffer.length < end + 4 + size) return;
    handle(JSON.parse(buffer.subarray(end + 4, end + 4 + size).toString("utf8")));
    buffer = buffer.subarray(end + 4 + size);
  }
});
