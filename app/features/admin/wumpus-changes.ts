import { schemaResolver } from '@mantine/form'
import { z } from 'zod'
import type { Wumpus } from '../../../contract/wumpus'
import { stickerEmojiListSchema } from '../../../contract/emoji'
import { keywordsSchema, LOTTIE_LINK_PATTERN, tagsSchema } from '../../../contract/wumpus-write'
import { wumpusDescriptionSchema, wumpusNameSchema, type UpdateWumpusBody } from '../../../contract/wumpus-write'

/** The edit form: every field optional; name and description start as the animation's own. */
export interface EditWumpusValues {
  name: string
  description: string
  /** A new Lottie to fetch, or '' to keep the current one. */
  lottieLink: string
  /** These start as the animation's own; emptying one removes them. */
  tags: string[]
  /** As characters. */
  emoji: string[]
  keywords: string[]
  /** Left out of lists and searches for everyone who has not turned sensitive stickers on. */
  sensitive: boolean
}

export function editWumpusValues(wumpus: Wumpus): EditWumpusValues {
  return {
    name: wumpus.name,
    description: wumpus.description,
    lottieLink: '',
    tags: [...(wumpus.tags ?? [])],
    emoji: (wumpus.emoji ?? []).map((emoji) => emoji.char),
    keywords: [...(wumpus.keywords ?? [])],
    sensitive: wumpus.sensitive ?? false,
  }
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((value, i) => value === b[i])

export type NewFileIds = NonNullable<UpdateWumpusBody['files']>

/** Only what differs from the animation; an emptied field falls back to the current value. */
export function wumpusChanges(wumpus: Wumpus, values: EditWumpusValues, files: NewFileIds = {}): UpdateWumpusBody {
  const changes: UpdateWumpusBody = {}
  const name = values.name.trim()
  const description = values.description.trim()
  if (name && name !== wumpus.name) changes.name = name
  if (description && description !== wumpus.description) changes.description = description
  if (!sameList(values.tags, wumpus.tags ?? [])) changes.tags = values.tags
  const emoji = (wumpus.emoji ?? []).map((entry) => entry.char)
  if (!sameList(values.emoji, emoji)) changes.emoji = values.emoji
  if (!sameList(values.keywords, wumpus.keywords ?? [])) changes.keywords = values.keywords
  if (values.sensitive !== (wumpus.sensitive ?? false)) changes.sensitive = values.sensitive
  const newFiles = Object.fromEntries(Object.entries(files).filter(([, id]) => Boolean(id))) as NewFileIds
  if (Object.keys(newFiles).length > 0) changes.files = newFiles
  return changes
}

const editSchema = z.object({
  name: wumpusNameSchema.optional(),
  description: wumpusDescriptionSchema.optional(),
  lottieLink: z.string().trim().regex(LOTTIE_LINK_PATTERN, 'Enter a valid URL').optional(),
  tags: tagsSchema.optional(),
  emoji: stickerEmojiListSchema.optional(),
  keywords: keywordsSchema.optional(),
})
const resolveEdit = schemaResolver(editSchema, { sync: true })

/** The add form's rules, for the fields that will change (an old value the rules now refuse does not block). */
export function validateEdit(wumpus: Wumpus, values: EditWumpusValues): Record<string, string> {
  const changes = wumpusChanges(wumpus, values)
  const link = values.lottieLink.trim()
  const { name, description, tags, emoji, keywords } = changes
  return resolveEdit({ name, description, lottieLink: link || undefined, tags, emoji, keywords }) as Record<string, string>
}

/** Shows the server's refusal of one tag, emoji or keyword (`tags.2`) under its list's field. */
export function showListProblems(problems: Record<string, string>, setFieldError: (field: string, error: string) => void): void {
  for (const field of ['tags', 'emoji', 'keywords']) {
    const problem = Object.entries(problems).find(([path]) => path === field || path.startsWith(`${field}.`))
    if (problem) setFieldError(field, problem[1])
  }
}
