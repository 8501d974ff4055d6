import { configDefaults, defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

/** Server tests that start the real server, a child process or the Auth emulator: the `backend` project. */
const BACKEND_INTEGRATION = [
  'backend/src/routes/**/*.test.ts',
  'backend/src/http/**/*.test.ts',
  'backend/src/{crash,disk-faults,fuzz,shared-mongo,backup-cli}.test.ts',
  'scripts/**/*.test.ts',
]

export default defineConfig({
  test: {
    projects: [
      {
        // Everything else on the server side (media, stores, services, contract): no emulator, no build.
        // `npm run test:unit` runs these with the app's component tests.
        test: {
          name: 'backend-unit',
          environment: 'node',
          include: ['backend/**/*.test.ts', 'contract/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...BACKEND_INTEGRATION],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'backend',
          environment: 'node',
          include: BACKEND_INTEGRATION,
          globalSetup: ['backend/test/support/auth-emulator-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'app',
          // jsdom with Node's Blob, File and FormData (see the file).
          environment: './app/test/jsdom-environment.ts',
          include: ['app/**/*.test.{ts,tsx}'],
          setupFiles: ['app/test/setup.ts'],
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/support/global-setup.ts'],
          // expect.poll gives up after one second by default: a busy 2-core machine can take longer.
          expect: { poll: { timeout: 30_000 } },
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
})
