/**
 * `chat/*`: open a conversation, send to it (streamed), stop its turn, read its history; only its
 * clients may.
 */
import type { Chats } from "../chats.ts";
import type { CallHandlers, StreamHandlers } from "../service.ts";

export function chatHandlers(
  chats: Chats,
): Pick<CallHandlers, "chat/open" | "chat/stop" | "chat/history"> &
  Pick<StreamHandlers, "chat/send"> {
  return {
    "chat/open": (request, { client }) => chats.openFor(client, request),
    "chat/stop": ({ conversationId }, { client }) => chats.stop(client, conversationId),
    "chat/history": ({ conversationId }, { client }) => chats.history(client, conversationId),
    "chat/send": (request, { client, signal, chunk }) =>
      chats.send(client, request, { signal, chunk }),
  };
}
