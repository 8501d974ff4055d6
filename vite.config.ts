import { fileURLToPath } from 'node:url'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url))

const apiProxy = {
  '/api': { target: `http://localhost:${process.env.API_PORT ?? 3000}` },
}

export default defineConfig({
  root: fromRoot('./app'),
  plugins: [
    // Must run before the React plugin.
    tanstackRouter({
      target: 'react',
      routesDirectory: fromRoot('./app/routes'),
      generatedRouteTree: fromRoot('./app/routeTree.gen.ts'),
      autoCodeSplitting: true,
      quoteStyle: 'single',
      semicolons: false,
    }),
    react(),
  ],
  server: { port: 5173, proxy: apiProxy },
  preview: { port: 4173, proxy: apiProxy },
  build: {
    outDir: fromRoot('./dist'),
    emptyOutDir: true,
  },
})
