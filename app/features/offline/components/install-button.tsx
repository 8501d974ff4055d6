import { Button, type ButtonProps } from '@mantine/core'
import { promptInstall, useCanInstall } from '../install-prompt'

/** 'Install app', shown only once the browser has offered installation (beforeinstallprompt). */
export function InstallButton(props: ButtonProps) {
  const canInstall = useCanInstall()
  if (!canInstall) return null
  return (
    <Button variant="light" {...props} onClick={() => void promptInstall()}>
      Install app
    </Button>
  )
}
