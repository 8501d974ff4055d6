/** Edits of a pack field by field, without zod: the outbox sync, loaded on every page, says what a conflict kept. */

/** The fields of a pack an edit sets; each keeps the time of its latest edit. */
export const PACK_EDIT_FIELDS = ['name', 'description', 'wumpusIds', 'coverWumpusId', 'visibility'] as const
export type PackEditField = (typeof PACK_EDIT_FIELDS)[number]

const FIELD_NAMES: Record<PackEditField, string> = {
  name: 'name',
  description: 'description',
  wumpusIds: 'stickers',
  coverWumpusId: 'cover',
  visibility: 'sharing',
}

/** An answer to an edit that names fields a later edit elsewhere kept (PUT /api/packs/{id}). */
export function supersedesFields(answer: unknown): answer is { name: string; superseded: PackEditField[] } {
  const value = answer as { name?: unknown; superseded?: unknown } | null
  return typeof value?.name === 'string' && Array.isArray(value.superseded) && value.superseded.length > 0
}

/** “Night pack” was changed on another device too: its newer name and cover were kept. */
export function supersededMessage(pack: { name: string; superseded: readonly PackEditField[] }): string {
  const names = pack.superseded.map((field) => FIELD_NAMES[field])
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0]
  return `“${pack.name}” was changed on another device too: its newer ${list} ${names.length > 1 ? 'were' : 'was'} kept.`
}
