import type { ButtonHTMLAttributes } from 'react'
import classes from './button.module.css'
import { Spinner } from './spinner'

export interface PlainButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'filled' | 'default' | 'light' | 'subtle' | 'subtle-gray'
  color?: 'red'
  /** `icon`: a square icon button (Mantine's ActionIcon), 28 px unless `size` says 'lg' (34) or 'input-sm' (36). */
  shape?: 'button' | 'icon'
  size?: 'compact-sm' | 'lg' | 'input-sm'
  loading?: boolean
}

/**
 * A <button> that looks like Mantine's Button (or ActionIcon) without its component code: the layout and
 * the gallery are on the page every visit starts on, whose script budget has no room for it.
 */
export function PlainButton({ variant, color, shape = 'button', size, loading = false, disabled, children, ...props }: PlainButtonProps) {
  return (
    <button
      type="button"
      {...props}
      className={[shape === 'icon' ? classes.icon : classes.button, props.className].filter(Boolean).join(' ')}
      data-variant={variant}
      data-color={color}
      data-size={size}
      data-loading={loading || undefined}
      disabled={disabled || loading}
    >
      <span className={classes.label}>{children}</span>
      {loading && (
        <span className={classes.veil}>
          <Spinner size="xs" color="currentColor" />
        </span>
      )}
    </button>
  )
}
