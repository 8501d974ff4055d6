// The uploads' transport: fetch cannot report how much of a request body was sent, XMLHttpRequest can.
// Loaded by api-client.ts only when a request asks for upload progress.

/** fetch's job done by XMLHttpRequest, which reports upload progress; answers a Response like fetch. */
export function sendWithProgress(
  url: URL,
  { method = 'GET', headers, body, signal }: RequestInit & { headers: Headers },
  onProgress: (fraction: number) => void,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason)
      return
    }
    const xhr = new XMLHttpRequest()
    xhr.open(method, url)
    xhr.responseType = 'arraybuffer'
    headers.forEach((value, name) => xhr.setRequestHeader(name, value))
    const onAbort = () => xhr.abort()
    signal?.addEventListener('abort', onAbort, { once: true })
    const settle = () => signal?.removeEventListener('abort', onAbort)
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total)
    })
    xhr.addEventListener('load', () => {
      settle()
      if (xhr.status >= 200 && xhr.status < 300) onProgress(1)
      resolve(
        new Response(xhr.status === 204 ? null : new Uint8Array(xhr.response as ArrayBuffer), {
          status: xhr.status,
          headers: responseHeaders(xhr),
        }),
      )
    })
    xhr.addEventListener('error', () => {
      settle()
      reject(new TypeError('Network request failed'))
    })
    xhr.addEventListener('abort', () => {
      settle()
      reject(signal?.reason ?? new DOMException('The request was cancelled.', 'AbortError'))
    })
    xhr.send((body ?? null) as XMLHttpRequestBodyInit | null)
  })
}

function responseHeaders(xhr: XMLHttpRequest): Headers {
  const headers = new Headers()
  for (const line of xhr
    .getAllResponseHeaders()
    .trim()
    .split(/[\r\n]+/)) {
    const colon = line.indexOf(':')
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim())
  }
  return headers
}
