import { ActionIcon, type ActionIconProps } from '@mantine/core'
import { createLink, type LinkComponent } from '@tanstack/react-router'
import type { ComponentPropsWithRef } from 'react'
import { PencilIcon } from './icons'

type EditIconProps = ActionIconProps & Omit<ComponentPropsWithRef<'a'>, keyof ActionIconProps | 'children'> & { name: string }
function EditIcon({ name, ...props }: EditIconProps) {
  return (
    <ActionIcon component="a" variant="default" size="lg" aria-label={`Edit ${name}`} title="Edit" {...props}>
      <PencilIcon />
    </ActionIcon>
  )
}
const CreatedEditIconLink = createLink(EditIcon)

/** The pencil of a row or card that opens `name`'s edit page: a typed router link. */
export const EditIconLink: LinkComponent<typeof EditIcon> = (props) => <CreatedEditIconLink preload="intent" {...props} />
