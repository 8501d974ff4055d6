import { NotFound } from '../../components/not-found'

const GONE = 'We looked in every room of the cave and found no animation with this id. It may have been removed.'

/** An animation's pages (its detail, its remix editor, its edit form) when there is no animation with that id. */
export function AnimationNotFound({ message = GONE }: { message?: string }) {
  return <NotFound title="Animation not found" message={message} />
}
