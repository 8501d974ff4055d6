// Builds "Add to my Discord server" from the settings (composition.ts spreads it in): absent while Discord is off.
import { createHmac } from 'node:crypto'
import type { Config } from '../config'
import type { Logger } from '../logger'
import type { Store } from '../store/port'
import { createDiscordApi } from './discord-api'
import { createDiscordUploadService, type DiscordUploadService, type DiscordUploadServiceDeps } from './discord-uploads'
import type { PackService } from './packs'

export type DiscordTimes = Pick<DiscordUploadServiceDeps, 'leaseMs' | 'pollMs' | 'retryMs'>

export function createDiscordService(options: {
  config: Config
  store: Store
  logger: Logger
  packs: Pick<PackService, 'detail'>
  times?: DiscordTimes
}): DiscordUploadService | undefined {
  const { config } = options
  if (!config.discord) return undefined
  const { clientId, clientSecret, botToken, apiUrl, authorizeUrl } = config.discord
  return createDiscordUploadService({
    store: options.store,
    logger: options.logger,
    packs: options.packs,
    api: createDiscordApi({ baseUrl: apiUrl, botToken, clientId, clientSecret }),
    clientId,
    authorizeUrl,
    // Tickets are signed with a key of their own, derived from the session secret.
    secret: createHmac('sha256', config.jwtSecret).update('discord tickets').digest('base64url'),
    ...options.times,
  })
}
