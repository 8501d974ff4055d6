import { preload } from 'react-dom'
import type { Wumpus } from '../../../../contract/wumpus'
import { stickerAlt } from '../../../lib/sticker-alt'
import { useInView } from '../../../lib/use-in-view'

interface StickerPictureProps {
  wumpus: Wumpus
  /** CSS size of the square image (default 300, the card's). */
  size?: number
  className?: string
  /** Load at once and with high priority (the first row of cards, the detail page). */
  eager?: boolean
  /** Animate only while at least half of it is on screen (cards); otherwise always. */
  animateInView?: boolean
  /** Pointed at or focused: it moves even for people who ask for reduced motion. */
  active?: boolean
}

/**
 * An animation as a `<picture>`: the WebP previews rendered for cards (1x and 2x) when the server
 * has made them, the GIF as the fallback `<img>`. Cards show the still first frame until they are
 * half on screen (and again once it leaves), so a visit only moves the animations people can see;
 * people who ask for reduced motion get the still unless they point at or focus it.
 */
export function StickerPicture({
  wumpus,
  size = 300,
  className,
  eager = false,
  animateInView = false,
  active = false,
}: StickerPictureProps) {
  const preview = wumpus.preview
  // The first row's still (what a card shows first) is the page's largest paint: asked for before the scripts.
  if (eager && preview) preload(preview.still, { as: 'image', type: 'image/webp', fetchPriority: 'high' })
  const { ref, inView } = useInView<HTMLImageElement>(0.5, animateInView && preview !== undefined)
  const moving = !animateInView || inView || active
  return (
    <picture>
      {preview && !active && <source type="image/webp" media="(prefers-reduced-motion: reduce)" srcSet={`${preview.still} 2x`} />}
      {preview && <source type="image/webp" srcSet={moving ? `${preview.webp} 1x, ${preview.webp2x} 2x` : `${preview.still} 2x`} />}
      <img
        ref={ref}
        className={className}
        src={wumpus.gif}
        alt={stickerAlt(wumpus)}
        width={size}
        height={size}
        loading={eager ? 'eager' : 'lazy'}
        fetchPriority={eager ? 'high' : undefined}
        decoding="async"
      />
    </picture>
  )
}
