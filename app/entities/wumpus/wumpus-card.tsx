import { Link } from '@tanstack/react-router'
import { memo } from 'react'
import type { Wumpus } from '../../../contract/wumpus'
import buttonClasses from '../../components/button.module.css'
import { StickerPicture } from './sticker-picture'
import { FavouriteButton } from '../favourite/favourite-button'
import { SaveOfflineIconButton } from '../saved-copy/save-offline-icon-button'
import { useSavedStickers } from '../saved-copy/use-saved-stickers'
import { HydrateWhenSeen } from '../../lib/hydrate-when-seen'
import { profilePath } from '../../lib/paths'
import { useHoverOrFocus } from '../../lib/use-hover-or-focus'
import { SendIconButton } from './send-icon-button'
import classes from './wumpus-card.module.css'

interface WumpusCardProps {
  wumpus: Wumpus
  /** Cards in the first row load at once; the rest wait until they scroll near. */
  eager?: boolean
}

/** Memoised: a list that renders again (a refetch, a new page) leaves its cards, hydrated or not, alone. */
export const WumpusCard = memo(function WumpusCard({ wumpus, eager = false }: WumpusCardProps) {
  return (
    <HydrateWhenSeen id={wumpus._id}>
      <Card wumpus={wumpus} eager={eager} />
    </HydrateWhenSeen>
  )
})

function Card({ wumpus, eager = false }: WumpusCardProps) {
  const headingId = `wumpus-${wumpus._id}-name`
  const saved = useSavedStickers()?.has(wumpus._id) ?? false
  const pointedAt = useHoverOrFocus()
  return (
    <li className={classes.card} aria-labelledby={headingId} data-hydrate-when-seen={wumpus._id} {...pointedAt.handlers}>
      <div className={classes.media}>
        <StickerPicture wumpus={wumpus} eager={eager} animateInView active={pointedAt.active} />
        {saved && <span className={classes.badge}>Saved for offline</span>}
      </div>
      <div className={classes.body}>
        <h2 className={classes.name} id={headingId}>
          {wumpus.name}
        </h2>
        <p className={classes.description}>{wumpus.description}</p>
        {wumpus.u_email ? (
          <a href={profilePath(wumpus.u_email)} className={classes.author}>
            by {wumpus.u_name}
          </a>
        ) : (
          <span className={classes.author}>by {wumpus.u_name}</span>
        )}
      </div>
      <div className={classes.actions}>
        <Link
          to="/wumpus/$id"
          params={{ id: wumpus._id }}
          className={buttonClasses.button}
          style={{ flex: 1 }}
          aria-label={`Download ${wumpus.name}`}
        >
          Download
        </Link>
        <SendIconButton wumpus={wumpus} />
        <FavouriteButton wumpus={wumpus} size="input-sm" />
        <SaveOfflineIconButton wumpus={wumpus} />
      </div>
    </li>
  )
}
