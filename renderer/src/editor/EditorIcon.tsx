/** The editor's nav icon: angle brackets (decorative, hidden from screen readers). */
import { Icon } from "../ui/icons.tsx";

export const EditorIcon = () => (
  <Icon>
    <path d="M8 7l-5 5 5 5M16 7l5 5-5 5M13.5 5l-3 14" />
  </Icon>
);
