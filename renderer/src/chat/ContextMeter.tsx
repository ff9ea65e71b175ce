/** How full the model's context is: tokens used of the window, as a ring and a percentage. */
import { formatTokens } from "./format.ts";
import type { TokenState } from "./transcript.ts";

export function ContextMeter({ tokens }: { tokens: TokenState | null }) {
  if (!tokens || tokens.max <= 0) return null;
  const used = tokens.lastApi > 0 ? tokens.lastApi : tokens.estimate;
  const percent = Math.min(100, Math.round((used / tokens.max) * 100));
  const tone = percent >= 85 ? "bad" : percent >= 65 ? "warn" : "ok";
  const label = `Context: ${formatTokens(used)} of ${formatTokens(tokens.max)} tokens (${percent}%)`;
  const r = 7;
  const c = 2 * Math.PI * r;
  return (
    <div
      className={`context-meter context-${tone}`}
      role="meter"
      aria-label="Context used"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={label}
      title={label}
    >
      <svg width="18" height="18" viewBox="0 0 18 18" aria-hidden="true">
        <circle cx="9" cy="9" r={r} className="context-track" />
        <circle
          cx="9"
          cy="9"
          r={r}
          className="context-fill"
          strokeDasharray={`${(percent / 100) * c} ${c}`}
          transform="rotate(-90 9 9)"
        />
      </svg>
      <span>
        {formatTokens(used)} / {formatTokens(tokens.max)}
      </span>
      <span className="context-percent">{percent}%</span>
    </div>
  );
}
