import { once } from 'node:events'
import { rm } from 'node:fs/promises'
import { ConfigError, loadConfig } from './config'
import { createLogger } from './logger'
import { createApp } from './app'
import { createRouteDeps } from './composition'
import { createStore } from './store/create-store'
import { StoreUnavailableError } from './store/port'
import { DatabaseNewerError, DataDirInUseError } from './store/sqlite/database'
import { StandaloneServerError } from './store/mongo/open-mongo-store'
import { seedDemoGallery, seedDemoPacks, completeDemoGallery } from './seed'
import { closeRenderPool } from './media/render/render-pool'
import { startOrphanSweeper } from './orphan-files'
import { hardenServer } from './http/node-server'
import { uploadTempDir } from './http/multipart'
import { listenForBackups } from './backup-socket'
import { createCreditBackfill } from './services/lottie-credit'

async function main() {
  let config
  try {
    config = loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error((error as Error).message)
      process.exit(1)
    }
    throw error
  }
  const logger = createLogger(config.logLevel)
  // Only this process's user may read what it writes under DATA_DIR (accounts, sessions, uploads).
  process.umask(0o077)
  let store
  try {
    store = await createStore({ mongodbUri: config.mongodbUri, dataDir: config.dataDir })
  } catch (error) {
    // A folder in use or not writable, a database out of reach, standalone or newer than this code: said in one line, no stack.
    const known = [DataDirInUseError, DatabaseNewerError, StoreUnavailableError, StandaloneServerError]
    if (known.some((kind) => error instanceof kind)) {
      console.error((error as Error).message)
      process.exit(1)
    }
    throw error
  }
  if (config.seedDemo) {
    await seedDemoGallery(store, logger)
    await completeDemoGallery(store, logger)
    await seedDemoPacks(store, logger)
  }
  // Uploads a previous run was receiving when it stopped.
  await rm(uploadTempDir(config), { recursive: true, force: true })

  // Other instances on the same MongoDB share the work: each looks for render jobs published or left elsewhere.
  const deps = createRouteDeps({ config, store, logger, renderPollMs: config.renderPollSeconds * 1000 })
  const { downloads, derivedMedia, colourSlots, backups, telegram, telegramLinks, discord } = deps
  const server = hardenServer(createApp(deps).listen(config.port, config.host))
  await once(server, 'listening')
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  const url = `http://${config.host === '0.0.0.0' || config.host === '127.0.0.1' ? 'localhost' : config.host}:${port}`
  logger.info('listening', { url, store: store.kind })
  console.log(`\nWumpus Gallery is running at ${url}\n`)

  const stopSweeper = startOrphanSweeper(store, logger, { sessionIdleSeconds: config.sessionIdleSeconds })
  const stopBackups = backups.schedule()
  const stopBackupSocket = await listenForBackups(store, config.dataDir, logger)
  // Makers written into the Lotties (and Telegram files) stored before the gallery wrote them (issue 37), one
  // animation per write; a pass cut short is taken up at the next start. The passes below read the Lotties it
  // leaves (one it replaces is gone): they start once it is done (a few ms when there is nothing to write).
  const credits = createCreditBackfill({ store, logger, onChange: telegram?.animationChanged })
  const credited = credits
    .run()
    .catch((error: unknown) => logger.error('writing makers into older Lotties failed', { error: String(error) }))
  // Previews and platform exports for animations that lack them (the demo set on a first start), in the background.
  void credited
    .then(() => derivedMedia.backfill())
    .catch((error: unknown) => logger.error('making previews and exports failed', { error: String(error) }))
  // Colour slots for originals that lack them (the demo set on a first start, animations stored before slots were kept).
  void credited
    .then(() => colourSlots.backfill())
    .then(
      ({ animations }) => animations > 0 && logger.info('colour slots read', { animations }),
      (error: unknown) => logger.error('reading colour slots failed', { error: String(error) }),
    )

  // Telegram set runs left by a stopped instance, or waiting for a retry time (README: Telegram sets).
  telegram?.start()
  if (telegram) logger.info('telegram sets on', { api: config.telegram!.apiUrl })
  // Issue 36: the bot hears `/start <code>` by long polling, unless Telegram posts to the webhook.
  if (!config.telegram?.webhookSecret) telegramLinks?.start()
  // Discord upload jobs left by a stopped instance, or waiting for a retry time (README: Discord app).
  discord?.start()
  if (discord) logger.info('discord uploads on', { api: config.discord!.apiUrl })

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info('stopping', { signal })
    server.closeIdleConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    stopSweeper()
    stopBackups()
    await stopBackupSocket()
    await downloads.close()
    await Promise.all([
      derivedMedia.close(),
      colourSlots.close(),
      credits.close(),
      closeRenderPool(),
      telegram?.close(),
      telegramLinks?.close(),
      discord?.close(),
    ])
    await store.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
