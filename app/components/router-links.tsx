import { Anchor, Button, type AnchorProps, type ButtonProps } from '@mantine/core'
import { createLink, type LinkComponent } from '@tanstack/react-router'
import type { ComponentPropsWithRef } from 'react'

// Mantine components rendered as typed TanStack Router links (preloading on hover/focus).

type AnchorBaseProps = AnchorProps & Omit<ComponentPropsWithRef<'a'>, keyof AnchorProps>
function AnchorBase(props: AnchorBaseProps) {
  return <Anchor {...props} />
}
const CreatedAnchorLink = createLink(AnchorBase)
export const AnchorLink: LinkComponent<typeof AnchorBase> = (props) => <CreatedAnchorLink preload="intent" {...props} />

type ButtonBaseProps = ButtonProps & Omit<ComponentPropsWithRef<'a'>, keyof ButtonProps>
function ButtonBase(props: ButtonBaseProps) {
  return <Button component="a" {...props} />
}
const CreatedButtonLink = createLink(ButtonBase)
export const ButtonLink: LinkComponent<typeof ButtonBase> = (props) => <CreatedButtonLink preload="intent" {...props} />
