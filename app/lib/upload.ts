import type { z } from 'zod'
import { API_PATHS } from '../../contract/api-paths'
import { uploadResponseSchema } from '../../contract/user'
import { ApiError, apiRequest, isApiError } from './api-client'

/** What the server accepts: png, gif, jpeg, jpg and webp (docs/product.md#limits). */
export const IMAGE_ACCEPT = 'image/png,image/gif,image/jpeg,image/webp,.png,.gif,.jpg,.jpeg,.webp'

interface UploadOptions {
  signal?: AbortSignal
}

/**
 * Uploads one image (multipart field `file`) and answers where it is stored.
 * onProgress gets the fraction sent so far, from 0 to 1.
 */
export function uploadImage(file: Blob, onProgress?: (fraction: number) => void, options: UploadOptions = {}): Promise<{ url: string }> {
  return uploadFile(API_PATHS.uploadImage, file, uploadResponseSchema, onProgress, { ...options, kind: 'image' })
}

interface UploadFileOptions extends UploadOptions {
  /** What the file is, for messages about answers without our error shape ('image', 'file'...). */
  kind?: string
}

/**
 * POSTs one file as multipart field `file` through the API client (session token, renewal on 401)
 * and checks the answer with `schema`.
 */
export async function uploadFile<S extends z.ZodType>(
  path: string,
  file: Blob,
  schema: S,
  onProgress?: (fraction: number) => void,
  { signal, kind = 'file' }: UploadFileOptions = {},
): Promise<z.infer<S>> {
  const form = new FormData()
  form.append('file', file, file instanceof File ? file.name : kind)
  try {
    return await apiRequest<z.infer<S>>(path, schema, { method: 'POST', body: form, signal, onUploadProgress: onProgress ?? (() => {}) })
  } catch (error) {
    throw withKind(error, kind)
  }
}

/** A proxy in front of the server may refuse a file without our error shape: say what was refused. */
function withKind(error: unknown, kind: string): unknown {
  if (!isApiError(error) || error.code !== 'BAD_RESPONSE') return error
  if (error.status === 413) return new ApiError(413, 'PAYLOAD_TOO_LARGE', `This ${kind} is too large.`)
  if (error.status === 415) return new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `This file is not a supported ${kind}.`)
  return error
}
