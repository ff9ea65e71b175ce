/**
 * Loopback fake model servers for tests and benchmarks (never for product code):
 *
 *   const srv = await startFakeOpenAI([{ text: ["Hel", "lo"] }, { error: { status: 429 } }]);
 *   const provider = new OpenAIProvider({ baseUrl: srv.url });
 *   …; srv.chatRequests[0].body; await srv.close();
 */
export { startFakeOpenAI, encodeOpenAI, type FakeOpenAIOptions } from "./fake-openai.ts";
export {
  startFakeAnthropic,
  encodeAnthropic,
  type FakeAnthropicOptions,
} from "./fake-anthropic.ts";
export {
  startFakeOllama,
  encodeOllama,
  type FakeOllamaOptions,
  type FakeOllamaModel,
} from "./fake-ollama.ts";
export type { FakeServer, RecordedRequest } from "./fake-server.ts";
export type { ScriptedResponse, ScriptedToolCall, ScriptedError } from "./script.ts";
export { collect, joined } from "./collect.ts";
