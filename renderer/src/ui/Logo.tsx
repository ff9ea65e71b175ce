export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg className="logo" width={size} height={size} viewBox="0 0 64 64" aria-hidden="true">
      <circle cx="40" cy="22" r="9" className="logo-sun" />
      <path d="M10 42c6-9 16-13 26-11 7 1 12 5 16 11z" className="logo-island" />
      <path
        d="M6 48c4 0 6-3 10-3s6 3 10 3 6-3 10-3 6 3 10 3 6-3 10-3 4 2 6 3"
        className="logo-wave"
      />
    </svg>
  );
}
