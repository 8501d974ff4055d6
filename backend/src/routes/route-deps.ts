import type { VerifyIdToken } from '../auth/firebase-id-token'
import type { Config } from '../config'
import type { CountedLists } from '../http/counted-lists'
import type { FileKeys } from '../http/file-keys'
import type { GalleryPages } from '../http/gallery-pages'
import type { RateLimits } from '../http/rate-limit'
import type { Logger } from '../logger'
import type { AccountService } from '../services/accounts'
import type { AnimationFileService } from '../services/animation-files'
import type { AuditLog } from '../services/audit'
import type { Backups } from '../services/backups'
import type { ColourSlotService } from '../services/colour-slots'
import type { DerivedMediaService } from '../services/derived-media'
import type { DownloadCounter } from '../services/download-counts'
import type { FavouriteService } from '../services/favourites'
import type { FileService } from '../services/files'
import type { MakerService } from '../services/makers'
import type { PackService } from '../services/packs'
import type { ProfileImageService } from '../services/profile-images'
import type { RemixService } from '../services/remixes'
import type { StillPictureService } from '../services/still-pictures'
import type { WumpusService } from '../services/wumpuses'
import type { SubmissionService } from '../services/submissions'
import type { ReportService } from '../services/reports'
import type { NotificationService } from '../services/notifications'
import type { TelegramSetService } from '../services/telegram-sets'
import type { TelegramLinkService } from '../services/telegram-links'
import type { DiscordUploadService } from '../services/discord-uploads'
import type { SessionService } from '../services/sessions'
import type { Store } from '../store/port'

/**
 * What every router gets, built once per app by the composition root (composition.ts): the settings, the
 * services (the rules; routes call them and never the store), and the HTTP edge's own per-app objects.
 */
export interface RouteDeps {
  config: Config
  logger: Logger
  /** For the readiness probe, and the edge's page caches and link previews (they follow its revisions). */
  store: Store

  // The services.
  sessions: SessionService
  accounts: AccountService
  wumpuses: WumpusService
  submissions: SubmissionService
  reports: ReportService
  notifications: NotificationService
  animationFiles: AnimationFileService
  remixes: RemixService
  derivedMedia: DerivedMediaService
  colourSlots: ColourSlotService
  files: FileService
  stills: StillPictureService
  profileImages: ProfileImageService
  favourites: FavouriteService
  packs: PackService
  /** Telegram sets of public packs; absent when TELEGRAM_BOT_TOKEN is not set. */
  telegram?: TelegramSetService
  /** Telegram links of gallery accounts (issue 36); absent when TELEGRAM_BOT_TOKEN is not set. */
  telegramLinks?: TelegramLinkService
  /** "Add to my Discord server"; absent when the DISCORD_ settings are not given. */
  discord?: DiscordUploadService
  makers: MakerService
  audit: AuditLog
  downloads: DownloadCounter
  backups: Backups

  // The HTTP edge's.
  /** Firebase ID token verification for the sign-in exchange. */
  verifyIdToken: VerifyIdToken
  limits: RateLimits
  /** Keys in the file URLs of private remixes. */
  fileKeys: FileKeys
  /** The gallery's list pages, and the tags and emoji in use, cached (shared with server rendering). */
  galleryPages: GalleryPages
  tagLists: CountedLists
  emojiLists: CountedLists
}
