/**
 * Hides most of an address for display: the first 3 characters of the local part, then '...@domain'.
 * 'ana.smith@example.com' -> 'ana...@example.com'.
 */
export function maskEmail(email: string): string {
  const trimmed = email.trim()
  const at = trimmed.lastIndexOf('@')
  if (at < 0) return trimmed ? `${trimmed.slice(0, 3)}...` : ''
  return `${trimmed.slice(0, Math.min(3, at))}...@${trimmed.slice(at + 1)}`
}
