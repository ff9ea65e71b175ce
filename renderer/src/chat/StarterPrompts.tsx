/**
 * A few first things to ask an agent that can read, write and run things in the project. A click
 * puts the prompt in the composer to edit or send; it never sends by itself.
 */
export const STARTERS: { label: string; prompt: string }[] = [
  {
    label: "Tour this project",
    prompt:
      "Give me a tour of this project: what it does, how its folders are organised, and how to build and test it.",
  },
  {
    label: "Find and fix a failing test",
    prompt: "Run the tests, find the first one that fails, explain why, and propose a fix.",
  },
  {
    label: "Review recent changes",
    prompt: "Look at the files changed most recently and point out bugs or risky code.",
  },
  {
    label: "Write a README",
    prompt: "Read the project's files and draft a README.md: purpose, setup, usage and tests.",
  },
];

export function StarterPrompts({ onPick }: { onPick(prompt: string): void }) {
  return (
    <ul className="starters" aria-label="Starter prompts">
      {STARTERS.map((s) => (
        <li key={s.label}>
          <button
            type="button"
            className="starter"
            title={s.prompt}
            onClick={() => onPick(s.prompt)}
          >
            <span className="starter-label">{s.label}</span>
            <span className="starter-prompt">{s.prompt}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
