import type { z } from 'zod'
import { isErrorBody } from '../../contract/errors'
import { uploadResponseSchema } from '../../contract/user'
import { ApiError, getAccessToken } from './api-client'

export const UPLOAD_IMAGE_PATH = '/api/uploads/image'

/** What the server accepts: png, gif, jpeg, jpg and webp (docs/product-rules.md#limits). */
export const IMAGE_ACCEPT = 'image/png,image/gif,image/jpeg,image/webp,.png,.gif,.jpg,.jpeg,.webp'

interface UploadOptions {
  signal?: AbortSignal
}

/**
 * Uploads one image (multipart field `file`) and answers where it is stored.
 * onProgress gets the fraction sent so far, from 0 to 1.
 */
export function uploadImage(
  file: Blob,
  onProgress?: (fraction: number) => void,
  options: UploadOptions = {},
): Promise<{ url: string }> {
  return uploadFile(UPLOAD_IMAGE_PATH, file, uploadResponseSchema, onProgress, { ...options, kind: 'image' })
}

interface UploadFileOptions extends UploadOptions {
  /** What the file is, for messages about answers without our error shape ('image', 'file'...). */
  kind?: string
}

/**
 * POSTs one file as multipart field `file` with the bearer token and checks the answer with `schema`.
 * XMLHttpRequest rather than fetch, because only XHR reports upload progress.
 */
export function uploadFile<S extends z.ZodType>(
  path: string,
  file: Blob,
  schema: S,
  onProgress?: (fraction: number) => void,
  { signal, kind = 'file' }: UploadFileOptions = {},
): Promise<z.infer<S>> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason)
      return
    }
    const xhr = new XMLHttpRequest()
    xhr.open('POST', new URL(path, window.location.origin))
    xhr.setRequestHeader('Accept', 'application/json')
    const token = getAccessToken()
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`)

    const onAbort = () => xhr.abort()
    signal?.addEventListener('abort', onAbort, { once: true })
    const settle = () => signal?.removeEventListener('abort', onAbort)

    if (onProgress) {
      xhr.upload.addEventListener('progress', (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total)
      })
    }
    xhr.addEventListener('load', () => {
      settle()
      const body = parseJson(xhr.responseText)
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(toUploadError(xhr.status, body, kind))
        return
      }
      const parsed = schema.safeParse(body)
      if (!parsed.success) {
        reject(new ApiError(xhr.status, 'BAD_RESPONSE', 'The server answered with data this app cannot read.'))
        return
      }
      onProgress?.(1)
      resolve(parsed.data)
    })
    xhr.addEventListener('error', () => {
      settle()
      reject(new ApiError(0, 'NETWORK_ERROR', 'Could not reach the server. Check your connection and try again.'))
    })
    xhr.addEventListener('abort', () => {
      settle()
      reject(signal?.reason ?? new DOMException('The upload was cancelled.', 'AbortError'))
    })

    const form = new FormData()
    form.append('file', file, file instanceof File ? file.name : kind)
    xhr.send(form)
  })
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function toUploadError(status: number, body: unknown, kind: string): ApiError {
  if (isErrorBody(body)) {
    const { code, message, details } = body.error
    return new ApiError(status, code, message, details)
  }
  // A proxy in front of the server may answer these without our error shape.
  if (status === 413) return new ApiError(status, 'PAYLOAD_TOO_LARGE', `This ${kind} is too large.`)
  if (status === 415) return new ApiError(status, 'UNSUPPORTED_MEDIA_TYPE', `This file is not a supported ${kind}.`)
  return new ApiError(status, 'BAD_RESPONSE', `The server answered with an unexpected error (HTTP ${status}).`)
}
