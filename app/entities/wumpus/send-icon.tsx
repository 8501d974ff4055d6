import { StrokeIcon } from '../../components/stroke-icon'

/** A paper plane: Send (drawn by the cards' Send too). */
export const SEND_PATH = 'M21 3 10 14M21 3l-7 18-4-7-7-4 18-7z'

/** Send's icon. */
export function SendIcon() {
  return (
    <StrokeIcon>
      <path d={SEND_PATH} />
    </StrokeIcon>
  )
}
