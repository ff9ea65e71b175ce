/** `outputStyles/*`: the output style picker (as `/output-style`), per conversation. */
import { z } from "zod";

export const OutputStyleItem = z.strictObject({
  /** `default` first (the agent's own prompt), then the homes' and plugins' (`plugin:style`). */
  name: z.string(),
  description: z.string(),
});

export const OutputStylesList = {
  request: z.strictObject({ conversationId: z.string().min(1, "conversationId: required") }),
  response: z.strictObject({
    styles: z.array(OutputStyleItem),
    /** The conversation's style now ("default" when none). */
    current: z.string(),
    /** Style files that could not be read, one line each naming file and field. */
    errors: z.array(z.string()),
  }),
};

/** Switches the conversation as `/output-style NAME` does; saved in its session file. */
export const OutputStylesSelect = {
  request: z.strictObject({
    conversationId: z.string().min(1, "conversationId: required"),
    style: z.string().min(1, "style: required"),
  }),
  response: z.strictObject({ style: z.string() }),
};
