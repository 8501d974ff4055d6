import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import path from 'node:path'
import { koaBody } from 'koa-body'
import type { Middleware } from 'koa'
import { MAX_MULTIPART_FIELDS_BYTES } from '../../../contract/limits'
import type { Config } from '../config'
import { HttpError, isDiskFault, storeUnavailable } from './http-error'

/** Where multipart uploads wait while a request is handled; emptied at start (see main.ts). */
export function uploadTempDir(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'upload-tmp')
}

/** Multipart parsing for one route: formidable's limits become our 413/400 in the error shape. */
export function multipart(options: { maxFileBytes: number; maxFiles: number; config: Pick<Config, 'dataDir'> }): Middleware {
  const tempDir = uploadTempDir(options.config)
  mkdirSync(tempDir, { recursive: true, mode: 0o700 })
  return async (ctx, next) => {
    if (!ctx.is('multipart/form-data')) throw new HttpError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data')
    // Every temp file formidable starts, kept or refused, complete or cut short, is removed afterwards.
    // We open the files ourselves so we can wait for each to close first: a refused upload's file may
    // still be opening when the request ends, and removing it then would leave the file behind.
    const temps: WriteStream[] = []
    const parse = koaBody({
      multipart: true,
      json: false,
      urlencoded: false,
      text: false,
      formidable: {
        uploadDir: tempDir,
        maxFileSize: options.maxFileBytes,
        maxTotalFileSize: options.maxFileBytes * options.maxFiles,
        maxFiles: options.maxFiles,
        maxFields: 20,
        maxFieldsSize: MAX_MULTIPART_FIELDS_BYTES,
        allowEmptyFiles: false,
        fileWriteStreamHandler: (file) => {
          const stream = createWriteStream((file as unknown as { filepath: string }).filepath, { mode: 0o600 })
          temps.push(stream)
          return stream
        },
      },
      onError: (error) => {
        const code = (error as { code?: number }).code
        const http = (error as { httpCode?: number }).httpCode
        // formidable: 1009 a file above maxFileSize, 1016 all files above maxTotalFileSize.
        if (isDiskFault(error)) throw storeUnavailable()
        if (code === 1009 || code === 1016) throw new HttpError('PAYLOAD_TOO_LARGE', 'The file is too large')
        if (code === 1006) throw new HttpError('PAYLOAD_TOO_LARGE', `The text fields may have ${MAX_MULTIPART_FIELDS_BYTES} bytes in all`)
        if (code === 1015) throw new HttpError('BAD_REQUEST', 'Too many files in one upload')
        if (code === 1007) throw new HttpError('BAD_REQUEST', 'Too many fields in one upload')
        throw new HttpError(http === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST', 'The upload could not be read')
      },
    })
    try {
      await parse(ctx, next)
    } finally {
      await Promise.all(temps.map(removeWhenClosed))
    }
  }
}

async function removeWhenClosed(stream: WriteStream): Promise<void> {
  if (!stream.closed) {
    const closed = new Promise<void>((resolve) => stream.once('close', () => resolve()))
    stream.destroy()
    await closed
  }
  await rm(stream.path, { force: true })
}

/** An uploaded file as formidable kept it: `size` is the bytes it received. */
export interface UploadedFile {
  field: string
  path: string
  name: string
  size: number
}

/** The uploaded files of a request parsed by multipart(); their temp files go once the request is done. */
export function uploadedFiles(ctx: { request: { files?: unknown } }): UploadedFile[] {
  type Formidable = { filepath: string; originalFilename?: string | null; size: number }
  const files = (ctx.request.files ?? {}) as Record<string, Formidable | Formidable[]>
  return Object.entries(files).flatMap(([field, value]) =>
    (Array.isArray(value) ? value : [value]).map((f) => ({ field, path: f.filepath, name: f.originalFilename ?? '', size: f.size })),
  )
}

/** The one file a request sent in the field "file", read; anything else is refused. */
export async function singleUploadedFile(ctx: { request: { files?: unknown } }): Promise<{ bytes: Uint8Array; name: string }> {
  const files = uploadedFiles(ctx)
  const file = files.find((f) => f.field === 'file')
  if (!file || files.length !== 1) throw new HttpError('BAD_REQUEST', 'Send exactly one file, in the field "file"')
  return { bytes: await readUploadedFile(file), name: file.name }
}

/**
 * The bytes of an uploaded file. formidable counts what it received even when its write to the temp
 * file failed afterwards (a full disk): fewer bytes on disk than received means the disk, not the file.
 */
export async function readUploadedFile(file: Pick<UploadedFile, 'path' | 'size'>): Promise<Uint8Array> {
  const bytes = new Uint8Array(await readFile(file.path))
  if (bytes.length !== file.size) throw storeUnavailable()
  return bytes
}
