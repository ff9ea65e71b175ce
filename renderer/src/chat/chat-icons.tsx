/** Stroke icons for the chat (decorative: hidden from screen readers, like ui/icons.tsx). */
import { Icon } from "../ui/icons.tsx";

export const CopyIcon = () => (
  <Icon size={14}>
    <rect x="8" y="8" width="12" height="12" rx="2" />
    <path d="M16 8V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h2" />
  </Icon>
);
export const SendIcon = () => (
  <Icon>
    <path d="M12 19V5M5 12l7-7 7 7" />
  </Icon>
);
export const StopIcon = () => (
  <Icon>
    <rect x="7" y="7" width="10" height="10" rx="1.5" fill="currentColor" />
  </Icon>
);
export const ToolIcon = () => (
  <Icon size={14}>
    <path d="M14.7 6.3a4 4 0 0 0-5.4 5.4L4 17l3 3 5.3-5.3a4 4 0 0 0 5.4-5.4l-2.5 2.5-2.2-.8-.8-2.2z" />
  </Icon>
);
export const ChevronIcon = () => (
  <Icon size={14}>
    <path d="m9 6 6 6-6 6" />
  </Icon>
);
export const BrainIcon = () => (
  <Icon size={14}>
    <path d="M9 4a3 3 0 0 0-3 3v.2A3 3 0 0 0 4 10a3 3 0 0 0 1 2.2A3 3 0 0 0 6 17a3 3 0 0 0 3 3 3 3 0 0 0 3-3V7a3 3 0 0 0-3-3z" />
    <path d="M15 4a3 3 0 0 1 3 3v.2A3 3 0 0 1 20 10a3 3 0 0 1-1 2.2A3 3 0 0 1 18 17a3 3 0 0 1-3 3 3 3 0 0 1-3-3" />
  </Icon>
);
export const HookIcon = () => (
  <Icon size={14}>
    <path d="M6 4v16" />
    <circle cx="6" cy="7" r="1.6" fill="currentColor" />
    <circle cx="6" cy="17" r="1.6" fill="currentColor" />
    <path d="M10 7h9M10 12h6M10 17h8" />
  </Icon>
);
export const RetryIcon = () => (
  <Icon size={14}>
    <path d="M4 12a8 8 0 1 0 2.3-5.7L4 8.5" />
    <path d="M4 3.5v5h5" />
  </Icon>
);
export const CheckIcon = () => (
  <Icon size={14}>
    <path d="m5 12 5 5 9-10" />
  </Icon>
);
export const PuzzleIcon = () => (
  <Icon size={14}>
    <path d="M10 4a2 2 0 1 1 4 0v2h4v4h-2a2 2 0 1 0 0 4h2v4h-4v-2a2 2 0 1 0-4 0v2H6v-4h2a2 2 0 1 0 0-4H6V6h4z" />
  </Icon>
);
