export function buildApp(options?: {
  outDir?: string
  ssrOutDir?: string
  viteArgs?: string[]
  logLevel?: 'info' | 'warn' | 'error' | 'silent'
}): boolean
