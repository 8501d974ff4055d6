import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { get } from 'node:https'
import { BlockList, isIP } from 'node:net'
import { HttpError } from '../http/http-error'

/** Addresses a link given by a user must never make the server talk to (SSRF). */
const privateRanges = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) privateRanges.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of [['::', 127], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) {
  privateRanges.addSubnet(net, prefix, 'ipv6')
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return false
  // IPv4-mapped IPv6 (::ffff:10.0.0.1) is judged by its IPv4 part.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return isPublicAddress(mapped[1]!)
  return !privateRanges.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

const refused = (message: string) => new HttpError('BAD_REQUEST', message)

/**
 * Downloads an https URL given by a user: public addresses only (checked on the address actually
 * connected to, so DNS tricks don't help), no redirects, a byte limit and a time limit.
 */
export function fetchRemote(rawUrl: string, options: { maxBytes: number; timeoutMs?: number }): Promise<Uint8Array> {
  let url: URL
  try {
    url = new URL(rawUrl)
  } catch {
    return Promise.reject(refused('Not a valid link'))
  }
  if (url.protocol !== 'https:') return Promise.reject(refused('Only https links can be fetched'))
  if (url.username || url.password) return Promise.reject(refused('Links with credentials are not fetched'))
  const literal = url.hostname.replace(/^\[|\]$/g, '')
  if (isIP(literal) && !isPublicAddress(literal)) return Promise.reject(refused('That address cannot be fetched'))

  return new Promise((resolve, reject) => {
    const request = get(
      url,
      {
        timeout: options.timeoutMs ?? 10_000,
        lookup: (hostname, lookupOptions, callback) =>
          dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses: LookupAddress[]) => {
            if (error) return callback(error, '', 0)
            const usable = addresses.filter((a) => isPublicAddress(a.address))
            if (usable.length === 0) return callback(refused('That address cannot be fetched'), '', 0)
            if (lookupOptions.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable)
            callback(null, usable[0]!.address, usable[0]!.family)
          }),
      },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume()
          return reject(refused(`The link answered ${response.statusCode}`))
        }
        const chunks: Buffer[] = []
        let size = 0
        response.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > options.maxBytes) {
            request.destroy()
            reject(new HttpError('PAYLOAD_TOO_LARGE', 'The linked file is too large'))
          } else chunks.push(chunk)
        })
        response.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))))
        response.on('error', () => reject(refused('The link could not be read')))
      },
    )
    request.on('timeout', () => request.destroy(refused('The link took too long to answer')))
    request.on('error', (error) => reject(error instanceof HttpError ? error : refused('The link could not be fetched')))
  })
}
