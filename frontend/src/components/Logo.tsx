/** The product mark; colours come from tokens via currentColor and CSS variables. */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="7" fill="var(--color-primary)" />
      <path
        d="M7 23h18M9 19l5-6 4 3 5-7"
        stroke="var(--color-on-primary)"
        strokeWidth="2.4"
        fill="none"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
