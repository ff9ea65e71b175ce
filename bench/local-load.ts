/**
 * Loads a model in this process, from importing node-llama-cpp until it is ready to generate (its
 * context created, its chat wrapper resolved from the template), and prints the milliseconds: the
 * in-process baseline of the runtime's start + load figure.
 * Usage: node bench/local-load.ts MODEL.gguf THREADS CONTEXT_SIZE SEQUENCES
 */
const started = performance.now();
const { getLlama, LlamaLogLevel, resolveChatWrapper } = await import("node-llama-cpp");
const llama = await getLlama({
  build: "never",
  gpu: false,
  maxThreads: Number(process.argv[3]),
  logLevel: LlamaLogLevel.error,
});
const model = await llama.loadModel({ modelPath: process.argv[2] });
await model.createContext({
  contextSize: Number(process.argv[4]),
  sequences: Number(process.argv[5]),
});
resolveChatWrapper(model);
console.log(performance.now() - started);
process.exit(0);
