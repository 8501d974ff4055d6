import { schemaResolver } from '@mantine/form'
import { z } from 'zod'
import type { Wumpus } from '../../../contract/wumpus'
import { LOTTIE_LINK_PATTERN, tagsSchema } from '../../../contract/wumpus-write'
import { wumpusDescriptionSchema, wumpusNameSchema, type UpdateWumpus } from '../../../contract/wumpus-write'

/** The edit form: every field optional; name and description start as the animation's own. */
export interface EditWumpusValues {
  name: string
  description: string
  /** A new Lottie to fetch, or '' to keep the current one. */
  lottieLink: string
  /** Start as the animation's own; emptying them removes them. */
  tags: string[]
}

export function editWumpusValues(wumpus: Wumpus): EditWumpusValues {
  return { name: wumpus.name, description: wumpus.description, lottieLink: '', tags: [...(wumpus.tags ?? [])] }
}

export type NewFileIds = NonNullable<UpdateWumpus['files']>

/** Only what differs from the animation; an emptied field falls back to the current value. */
export function wumpusChanges(wumpus: Wumpus, values: EditWumpusValues, files: NewFileIds = {}): UpdateWumpus {
  const changes: UpdateWumpus = {}
  const name = values.name.trim()
  const description = values.description.trim()
  if (name && name !== wumpus.name) changes.name = name
  if (description && description !== wumpus.description) changes.description = description
  const tags = values.tags ?? []
  const current = wumpus.tags ?? []
  if (tags.length !== current.length || tags.some((tag, i) => tag !== current[i])) changes.tags = tags
  const newFiles = Object.fromEntries(Object.entries(files).filter(([, id]) => Boolean(id))) as NewFileIds
  if (Object.keys(newFiles).length > 0) changes.files = newFiles
  return changes
}

const editSchema = z.object({
  name: wumpusNameSchema.optional(),
  description: wumpusDescriptionSchema.optional(),
  lottieLink: z.string().trim().regex(LOTTIE_LINK_PATTERN, 'Enter a valid URL').optional(),
  tags: tagsSchema.optional(),
})
const resolveEdit = schemaResolver(editSchema, { sync: true })

/** The add form's rules, for the fields that will change (an old value the rules now refuse does not block). */
export function validateEdit(wumpus: Wumpus, values: EditWumpusValues): Record<string, string> {
  const changes = wumpusChanges(wumpus, values)
  const link = values.lottieLink.trim()
  return resolveEdit({ name: changes.name, description: changes.description, lottieLink: link || undefined, tags: changes.tags }) as Record<
    string,
    string
  >
}
