/** A round, friendly mascot face: the product mark. Decorative; the product name sits beside it. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <ellipse cx="32" cy="36" rx="26" ry="24" fill="var(--mantine-primary-color-filled)" />
      <path d="M12 22 L8 6 L22 16 Z M52 22 L56 6 L42 16 Z" fill="var(--mantine-primary-color-filled)" />
      <ellipse cx="23" cy="34" rx="5" ry="7" fill="#fff" />
      <ellipse cx="41" cy="34" rx="5" ry="7" fill="#fff" />
      <circle cx="24" cy="36" r="3" fill="#1a1b1e" />
      <circle cx="42" cy="36" r="3" fill="#1a1b1e" />
      <path d="M26 47 Q32 52 38 47" stroke="#fff" strokeWidth="3" fill="none" strokeLinecap="round" />
    </svg>
  )
}
