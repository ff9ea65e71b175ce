/** A tinted box for an error, a warning or a note: a short title line and the details. */
import type { ReactNode } from "react";
import { AlertIcon, InfoIcon } from "./icons.tsx";

export type Tone = "bad" | "warn" | "info";

export function Callout({
  tone,
  title,
  children,
  role,
}: {
  tone: Tone;
  title: ReactNode;
  children?: ReactNode;
  role?: "alert" | "status";
}) {
  return (
    <div className={`callout callout-${tone}`} role={role}>
      <span className="callout-icon">{tone === "info" ? <InfoIcon /> : <AlertIcon />}</span>
      <div className="callout-body">
        <p className="callout-title">{title}</p>
        {children}
      </div>
    </div>
  );
}
