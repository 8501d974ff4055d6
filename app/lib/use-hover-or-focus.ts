import { useState, type FocusEvent } from 'react'

/**
 * Whether the pointer is over an element or the focus is inside it, with the handlers to spread on
 * it. Animations that people asked to keep still play while they point at or focus them.
 */
export function useHoverOrFocus() {
  const [hovered, setHovered] = useState(false)
  const [focused, setFocused] = useState(false)
  const handlers = {
    onPointerEnter: () => setHovered(true),
    onPointerLeave: () => setHovered(false),
    onFocus: () => setFocused(true),
    onBlur: (event: FocusEvent<HTMLElement>) => {
      if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false)
    },
  }
  return { active: hovered || focused, handlers }
}
