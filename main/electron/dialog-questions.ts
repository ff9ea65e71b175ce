/**
 * The engine's questions as native dialogs on the main window (workspace trust at start-up,
 * plugin permissions, and tool approval until the chat answers it in the page). The wording and
 * buttons come from main/host/question-text.ts; this file only shows them.
 */
import { dialog, type BrowserWindow } from "electron";
import { dialogText } from "../host/question-text.ts";
import type { AnswerFor, QuestionKind, QuestionOf, QuestionPort } from "../host/questions.ts";

export function dialogQuestions(window: () => BrowserWindow | null): QuestionPort {
  let queue: Promise<unknown> = Promise.resolve();
  const show = async <K extends QuestionKind>(q: QuestionOf<K>, signal?: AbortSignal) => {
    const text = dialogText(q);
    const options = {
      type: "question" as const,
      title: text.title,
      message: text.message,
      detail: text.detail,
      buttons: text.buttons.map((b) => b.label),
      defaultId: 0,
      cancelId: 0,
      noLink: true,
      signal,
    };
    const win = window();
    const { response } = await (win
      ? dialog.showMessageBox(win, options)
      : dialog.showMessageBox(options));
    return (text.buttons[response] ?? text.buttons[0]).answer;
  };
  return {
    ask<K extends QuestionKind>(q: QuestionOf<K>, signal?: AbortSignal): Promise<AnswerFor<K>> {
      // One dialog at a time.
      const next = queue.then(() => show(q, signal));
      queue = next.catch(() => undefined);
      return next;
    },
  };
}
