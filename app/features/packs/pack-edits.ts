// Edits of personal packs go through the outbox (lib/local-data/outbox.ts): each is a PUT of only the fields
// the person changed plus the time of the edit, so the server keeps the latest edit of each field when the
// same pack was changed on another device. Until the server has them, the pack's reads show them applied.
import { packPath, wumpusPath } from '../../../contract/api-paths'
import type { Pack, PackDetail, UpdatePack } from '../../../contract/pack'
import type { Wumpus } from '../../../contract/wumpus'
import { apiRequest, getAccessToken, trusted } from '../../lib/api-client'
import { decodeSessionToken } from '../../lib/session'
import { pendingWrites, queueWrite, type QueuedWrite } from '../../lib/local-data/outbox'

/** What an edit can set: the pack's fields without the time. */
export type PackChanges = Omit<UpdatePack, 'editedAt'>

/** The pack's editable fields as a form has them. */
export interface PackFields {
  name: string
  description: string
  wumpusIds: string[]
  coverWumpusId: string | null
  visibility: 'private' | 'link'
}

/** Only the fields that differ from the pack as loaded. */
export function packChanges(loaded: Pack, next: PackFields): PackChanges {
  const changes: PackChanges = {}
  if (next.name.trim() !== loaded.name) changes.name = next.name
  if (next.description.trim() !== loaded.description) changes.description = next.description
  if (next.wumpusIds.join() !== loaded.wumpusIds.join()) changes.wumpusIds = next.wumpusIds
  if (next.coverWumpusId !== null && next.coverWumpusId !== loaded.coverWumpusId) changes.coverWumpusId = next.coverWumpusId
  if (next.visibility !== loaded.visibility) changes.visibility = next.visibility
  return changes
}

/** Keys of queued pack edits start with this. */
export const PACK_EDIT_PREFIX = 'pack:'
let lastEditKey = 0

/** Whether a queued write is an edit of a personal pack (of this one, when an id is given). */
export function isPackEdit(write: Pick<QueuedWrite, 'key' | 'path'>, id?: string): boolean {
  return write.key.startsWith(PACK_EDIT_PREFIX) && (id === undefined || write.path === packPath(id))
}

/**
 * Queues the edit; it is sent at once when the server can be reached. Each edit has its own key (edits of
 * different fields made one after another must all reach the server), and a later one of the same field
 * simply wins there, being later.
 */
export async function queuePackEdit(email: string, pack: Pick<Pack, 'id' | 'name'>, changes: PackChanges): Promise<void> {
  const editedAt = new Date()
  // Unique even for two edits in the same millisecond.
  lastEditKey = Math.max(lastEditKey + 1, editedAt.getTime())
  await queueWrite(email, {
    method: 'PUT',
    path: packPath(pack.id),
    body: { ...changes, editedAt: editedAt.toISOString() } satisfies UpdatePack,
    key: `${PACK_EDIT_PREFIX}${pack.id}:${lastEditKey}`,
    label: `Edit of “${pack.name}”`,
  })
}

/** The signed-in user's email, from the stored session token (null when signed out). */
function signedInEmail(): string | null {
  const token = getAccessToken()
  return token ? (decodeSessionToken(token)?.email ?? null) : null
}

/** The signed-in user's queued pack edits, oldest first (none when signed out or without IndexedDB). */
export async function pendingPackEdits(): Promise<QueuedWrite[]> {
  const email = signedInEmail()
  if (!email || typeof indexedDB === 'undefined') return []
  return (await pendingWrites(email).catch(() => [])).filter((write) => isPackEdit(write))
}

/** The pack with the queued edits of it applied, in order. `known` finds the stickers an edit names. */
export function applyPackEdits<T extends Pack>(pack: T, edits: QueuedWrite[], known: ReadonlyMap<string, Wumpus> = new Map()): T {
  let next = pack
  for (const edit of edits) {
    if (!isPackEdit(edit, pack.id)) continue
    const { editedAt: _time, ...changes } = edit.body as UpdatePack
    next = { ...next, ...changes }
    if (changes.wumpusIds && !changes.coverWumpusId && next.coverWumpusId && !changes.wumpusIds.includes(next.coverWumpusId))
      next.coverWumpusId = changes.wumpusIds[0] ?? null
  }
  if (next === pack) return pack
  const stickers = new Map(known)
  for (const item of 'items' in pack ? (pack as unknown as PackDetail).items : []) stickers.set(item._id, item)
  if (pack.cover) stickers.set(pack.cover._id, pack.cover)
  if (next.coverWumpusId !== pack.coverWumpusId) next.cover = (next.coverWumpusId && stickers.get(next.coverWumpusId)) || pack.cover
  if ('items' in next)
    (next as unknown as PackDetail).items = next.wumpusIds.flatMap((id) => {
      const sticker = stickers.get(id)
      return sticker ? [sticker] : []
    })
  return next
}

/**
 * A pack as read, with the signed-in user's queued edits of it applied. Stickers an edit added that the
 * pack did not hold are read too (offline, from what the device kept; one that cannot be read is left out).
 */
export async function withPendingEdits(pack: PackDetail): Promise<PackDetail> {
  const edits = (await pendingPackEdits()).filter((edit) => isPackEdit(edit, pack.id))
  if (edits.length === 0) return pack
  const held = new Set(pack.items.map((item) => item._id))
  const added = [...new Set(edits.flatMap((edit) => (edit.body as UpdatePack).wumpusIds ?? []))].filter((id) => !held.has(id))
  const found = await Promise.all(added.map((id) => apiRequest(wumpusPath(id), trusted<Wumpus>()).catch(() => null)))
  return applyPackEdits(pack, edits, new Map(found.flatMap((wumpus) => (wumpus ? [[wumpus._id, wumpus] as const] : []))))
}

/** A page of one's packs with the queued edits applied. */
export async function pageWithPendingEdits(packs: Pack[]): Promise<Pack[]> {
  const edits = await pendingPackEdits()
  return edits.length === 0 ? packs : packs.map((pack) => applyPackEdits(pack, edits))
}
