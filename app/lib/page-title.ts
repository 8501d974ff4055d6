import { useDocumentTitle } from '@mantine/hooks'
import { createContext, useContext } from 'react'

export const APP_NAME = 'Wumpus Gallery'

export function pageTitle(page?: string): string {
  return page ? `${page} · ${APP_NAME}` : APP_NAME
}

/** Server rendering: collects the title the page asks for, since effects do not run there. */
export const PageTitleSink = createContext<{ title?: string } | null>(null)

/** Sets document.title for the current page. */
export function usePageTitle(page?: string): void {
  const sink = useContext(PageTitleSink)
  if (sink) sink.title = pageTitle(page)
  useDocumentTitle(pageTitle(page))
}
