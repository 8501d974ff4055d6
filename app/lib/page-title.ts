import { useDocumentTitle } from '@mantine/hooks'

export const APP_NAME = 'Wumpus Gallery'

export function pageTitle(page?: string): string {
  return page ? `${page} · ${APP_NAME}` : APP_NAME
}

/** Sets document.title for the current page. */
export function usePageTitle(page?: string): void {
  useDocumentTitle(pageTitle(page))
}
