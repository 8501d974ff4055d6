import { PlainButton } from './plain-button'
import { promptInstall, useCanInstall } from '../lib/pwa/install-prompt'

/** 'Install app', shown only once the browser has offered installation (beforeinstallprompt). */
export function InstallButton() {
  const canInstall = useCanInstall()
  if (!canInstall) return null
  return (
    <PlainButton variant="light" onClick={() => void promptInstall()}>
      Install app
    </PlainButton>
  )
}
