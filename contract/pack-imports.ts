import { z } from 'zod'

/**
 * A pack in the formats community servers import their custom emoji from, served beside the chat apps' ZIPs at
 * `GET /api/packs/{id}/download/{format}`. Each holds the pack's animated emoji (the 128x128 GIF we make for
 * Discord emoji, which all three animate), with each one's name, tags and keywords, and its maker's credit.
 * The rules below are read from each server's own source (no such server runs here: checked against that
 * source and its documented formats only).
 */
export const IMPORT_FORMATS = ['misskey', 'mastodon', 'pleroma'] as const
export const importFormatSchema = z.enum(IMPORT_FORMATS)
export type ImportFormat = z.infer<typeof importFormatSchema>

export const IMPORT_LABELS: Record<ImportFormat, string> = {
  misskey: 'Misskey',
  mastodon: 'Mastodon',
  pleroma: 'Pleroma / Akkoma',
}

/**
 * Misskey's importer (ImportCustomEmojisProcessorService, misskey-dev/misskey) skips an emoji whose name is not
 * `^[a-zA-Z0-9_]+$` or whose file name is not `^[a-zA-Z0-9_]+?([a-zA-Z0-9.]+)?$`; its control panel takes names
 * in lower case. Ours are lower case letters, digits and underscores.
 */
export const MISSKEY_NAME = /^[a-z0-9_]+$/
export const MISSKEY_FILE_NAME = /^[a-zA-Z0-9_]+?([a-zA-Z0-9.]+)?$/

/**
 * Mastodon (app/models/custom_emoji.rb): a shortcode is `[a-zA-Z0-9_]{2,}` (recent versions allow one
 * character; two or more passes both), and a local emoji's image is at most MAX_EMOJI_SIZE, 256 KB by default.
 * `tootctl emoji import` (lib/mastodon/cli/emoji.rb) reads every `.png` and `.gif` entry of a tar.gz and takes
 * the shortcode from its file name.
 */
export const MASTODON_SHORTCODE = /^[a-zA-Z0-9_]{2,}$/
export const MASTODON_EMOJI_MAX_BYTES = 256 * 1024

/** Pleroma and Akkoma read a shortcode from a pack's `files` map; we give the same names as Misskey's. */
export const PLEROMA_SHORTCODE = MISSKEY_NAME

/** Where a Pleroma or Akkoma server pulls a pack from (`pleroma_ctl emoji get-packs -m <manifest> <name>`). */
export const pleromaSourceSchema = z.object({
  /** The pack's name on the server (its folder under `emoji/`). */
  packName: z.string(),
  /** The manifest `get-packs` reads: `{ name: { license, homepage, description, src, src_sha256, files } }`. */
  manifestUrl: z.string(),
  /** The pack's own `pack.json` (files and pack fields, `fallback-src` the ZIP), as Pleroma keeps it on disk. */
  packJsonUrl: z.string(),
})
export type PleromaSource = z.infer<typeof pleromaSourceSchema>

/**
 * One import format of a pack, as the pack page offers it: `fits` false means the server refuses it (`message`
 * says why); `skipped` stickers have no emoji file or break the format's limits (`notes` name them).
 */
export const packImportSchema = z.object({
  format: importFormatSchema,
  label: z.string(),
  url: z.string(),
  fileName: z.string(),
  fits: z.boolean(),
  message: z.string().nullable(),
  emoji: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  /** Sum of the emoji files' sizes. */
  bytes: z.number().int().nonnegative(),
  notes: z.array(z.string()),
  /** Pleroma / Akkoma, for a public pack or one shared by link: where another server pulls it from; null otherwise. */
  pleroma: pleromaSourceSchema.nullable(),
})
export type PackImport = z.infer<typeof packImportSchema>

/** The files a Pleroma or Akkoma server reads at `GET /api/packs/{id}/pleroma/{file}`. */
export const PLEROMA_FILES = ['manifest.json', 'files.json', 'pack.json'] as const
export const pleromaFileSchema = z.enum(PLEROMA_FILES)

/** Paths of a pack's Pleroma files. */
export function pleromaFilePath(id: string, file: (typeof PLEROMA_FILES)[number]): string {
  return `/api/packs/${encodeURIComponent(id)}/pleroma/${file}`
}
