// Who may see an animation. Every original is public; a remix is its owner's (and admins') unless its owner
// shares it by link. A remix the viewer may not see is as unknown: on every path that shows an animation or
// its files (detail, lists, favourites, packs, stickers, stills, files, link previews), it is NOT_FOUND.
// An animation an admin hid (a report's `hide` decision) is the same to everyone but admins, its maker included.
import type { WumpusRecord } from '../store/port'
import { isAdminViewer, type Viewer } from './viewer'

/** Whether the viewer may see the animation: any original, a remix shared by link, one's own remix; admins all. */
export function canSee(record: Pick<WumpusRecord, 'u_email' | 'remix' | 'hidden'>, viewer: Viewer): boolean {
  if (record.hidden) return isAdminViewer(viewer)
  return !record.remix || record.remix.visibility === 'link' || isAdminViewer(viewer) || viewer?.email === record.u_email
}

/**
 * Whether an answer names an animation's maker by email (and so links their profile) or by display name
 * only. An original's maker is a contributor, whose profile is public; a remix's maker is named by display
 * name to others, unless they are a contributor too: only they themself and admins see their email.
 */
export function showsMakerEmail(record: Pick<WumpusRecord, 'u_email' | 'remix'>, viewer: Viewer, makerIsContributor: boolean): boolean {
  return !record.remix || makerIsContributor || isAdminViewer(viewer) || viewer?.email === record.u_email
}

/** For one answer: whether it names this animation's maker by email (showsMakerEmail, the contributors looked up). */
export type MakerEmailShown = (record: Pick<WumpusRecord, 'u_email' | 'remix'>) => boolean
