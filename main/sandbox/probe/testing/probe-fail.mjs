// A probe that runs but finds isolated-vm unusable.
process.stdout.write(
  JSON.stringify({ ok: false, reason: "typed arrays inside an isolate gave NaN" }) + "\n",
);
