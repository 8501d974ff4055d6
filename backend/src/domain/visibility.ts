// Who may see an animation. Every original is public; a remix is its owner's (and admins') unless its owner
// shares it by link. A remix the viewer may not see is as unknown: on every path that shows an animation or
// its files (detail, lists, favourites, packs, stickers, stills, files, link previews), it is NOT_FOUND.
import type { WumpusRecord } from '../store/port'
import { isAdminViewer, type Viewer } from './viewer'

/** Whether the viewer may see the animation: any original, a remix shared by link, one's own remix; admins all. */
export function canSee(record: Pick<WumpusRecord, 'u_email' | 'remix'>, viewer: Viewer): boolean {
  return !record.remix || record.remix.visibility === 'link' || isAdminViewer(viewer) || viewer?.email === record.u_email
}
