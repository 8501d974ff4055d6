import { ActionIcon, type ActionIconProps } from '@mantine/core'
import { createLink, type LinkComponent } from '@tanstack/react-router'
import type { ComponentPropsWithRef } from 'react'

type ActionIconBaseProps = ActionIconProps & Omit<ComponentPropsWithRef<'a'>, keyof ActionIconProps>
function ActionIconBase(props: ActionIconBaseProps) {
  return <ActionIcon component="a" {...props} />
}
const CreatedActionIconLink = createLink(ActionIconBase)

/** An icon button that is a typed router link. */
export const ActionIconLink: LinkComponent<typeof ActionIconBase> = (props) => <CreatedActionIconLink preload="intent" {...props} />
