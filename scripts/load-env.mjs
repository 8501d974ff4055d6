// Reads .env from the current folder (the project's root under npm) when there is one, with Node's own
// loader: variables already in the environment win over the file. `npm start` imports it (scripts/start.mjs)
// and `npm run serve` preloads it (`node --import`), so both read the same settings.
import { existsSync } from 'node:fs'

if (existsSync('.env')) process.loadEnvFile('.env')
