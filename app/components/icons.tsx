// Small stroke icons in the style of the theme toggle's; decorative, the buttons carry the labels.
import { StrokeIcon } from './stroke-icon'

export function TrashIcon() {
  return (
    <StrokeIcon size={18}>
      <path d="M4 7h16M10 11v6M14 11v6M5 7l1 12a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />
    </StrokeIcon>
  )
}

export function PencilIcon() {
  return (
    <StrokeIcon size={18}>
      <path d="M4 20h4L19 9l-4-4L4 16v4zM13.5 6.5l4 4" />
    </StrokeIcon>
  )
}

/** A door with an arrow going out of it: signing out. */
export function SignOutIcon() {
  return (
    <StrokeIcon size={18}>
      <path d="M10 4H6a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h4M15 8l4 4-4 4M19 12H9" />
    </StrokeIcon>
  )
}
