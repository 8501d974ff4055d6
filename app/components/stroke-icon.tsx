import type { ReactNode } from 'react'

interface StrokeIconProps {
  children: ReactNode
  size?: number
  strokeWidth?: number
  className?: string
}

/** A small line icon in the theme's style (24-unit grid, round ends); decorative, its button carries the label. */
export function StrokeIcon({ children, size = 16, strokeWidth = 2, className }: StrokeIconProps) {
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      {children}
    </svg>
  )
}
