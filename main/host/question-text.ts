/**
 * A question as a dialog shows it: title, message, detail and buttons with the answer each gives
 * (the first button is the default, the last cancels). The desktop app's native dialog and the
 * app's question dialog use it; Electron-free so it is tested under Node. Every string from a
 * model, plugin or repository is shown with its control and invisible characters made visible.
 */
import { packInstallLines, packUpdateLines } from "./pack-question-text.ts";
import { describePermission } from "./permission-text.ts";
import type { AnswerFor, QuestionKind, QuestionOf } from "./questions.ts";
import { argumentsText, visibleQuestion } from "./visible-question.ts";

export interface DialogText<K extends QuestionKind> {
  title: string;
  message: string;
  detail: string;
  buttons: { label: string; answer: AnswerFor<K> }[];
}

export function dialogText<K extends QuestionKind>(question: QuestionOf<K>): DialogText<K> {
  const q = visibleQuestion(question as QuestionOf<QuestionKind>);
  const out = (text: Omit<DialogText<QuestionKind>, "buttons">, buttons: [string, string][]) =>
    ({ ...text, buttons: buttons.map(([label, answer]) => ({ label, answer })) }) as DialogText<K>;
  switch (q.kind) {
    case "approval":
      if (q.rewrittenBy?.length)
        return out(
          {
            title: "Allow tool call",
            message: `Allow ${q.tool}? Plugin ${q.rewrittenBy.join(", ")} rewrote what the model asked for.`,
            detail: argumentsText(q.arguments),
          },
          [
            ["Deny", "deny"],
            ["Allow this once", "allow"],
          ],
        );
      return out(
        {
          title: "Allow tool call",
          message: `Allow ${q.tool}?`,
          detail:
            (q.changed?.length ? `${q.changed.join("\n")}\n\n` : "") + argumentsText(q.arguments),
        },
        [
          ["Deny", "deny"],
          ["Allow", "allow"],
          ["Always allow here", "always"],
          ["Never here", "never"],
        ],
      );
    case "permissions":
      return out(
        {
          title: "Plugin permissions",
          message: `The plugin ${q.plugin} asks for:`,
          detail:
            q.requested.map((i) => `• ${describePermission(i)}`).join("\n") +
            (q.granted.length ? `\n\nAlready granted: ${q.granted.length}` : "") +
            `\n\n${q.dir}`,
        },
        [
          ["Deny", "deny"],
          ["Grant", "grant"],
          ["Only this time", "once"],
        ],
      );
    case "workspace-trust":
      return out(
        {
          title: "Trust this folder?",
          message: `Do you trust the files in ${q.folder}?`,
          detail:
            "Its .islet/ folder would enable:\n" +
            q.heldBack.map((l) => `• ${l}`).join("\n") +
            "\n\nUntrusted, its plugins still run sandboxed with default rights.",
        },
        [
          ["Don't trust", "deny"],
          ["Trust", "trust"],
          ["Only this time", "once"],
        ],
      );
    case "plugin-activation":
      return out(
        {
          title: "Activate plugin",
          message: `Activate the ${q.pluginKind === "runner" ? "CLI-tool" : "code"} plugin ${q.plugin}?`,
          detail:
            `${q.description}\n\n` +
            q.details.map((l) => `• ${l}`).join("\n") +
            `\n\nWhy: ${q.reason}`,
        },
        [
          ["Deny", "deny"],
          ["Activate", "allow"],
        ],
      );
    case "runner-install":
      return out(
        {
          title: "Install what a plugin needs",
          message: `The plugin ${q.plugin} needs this to run:`,
          detail: `${q.command}\n\nWhy: ${q.reason}`,
        },
        [
          ["Cancel", "cancel"],
          ["Run it", "install"],
        ],
      );
    case "pack-install": {
      const [message, ...detail] = packInstallLines(question as QuestionOf<"pack-install">);
      return out({ title: "Install plugins", message, detail: detail.join("\n") }, [
        ["Cancel", "cancel"],
        ["Install", "install"],
      ]);
    }
    case "pack-update": {
      const [message, ...detail] = packUpdateLines(question as QuestionOf<"pack-update">);
      return out({ title: "Update plugins", message, detail: detail.join("\n") }, [
        ["Cancel", "cancel"],
        ["Update", "update"],
      ]);
    }
  }
}
