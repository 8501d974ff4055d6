import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { get } from 'node:https'
import { BlockList, isIP } from 'node:net'
import { DomainError, invalid, tooLarge } from '../../domain/errors'

/**
 * Where a link given by a user may make the server connect: global unicast addresses only (SSRF).
 * IPv4: everything but the special-purpose ranges (RFC 6890 and its updates). IPv6: only 2000::/3,
 * the global unicast space, without its special blocks, so NAT64 (64:ff9b::/96), IPv4-mapped and
 * IPv4-compatible addresses (which sit outside 2000::/3) and 6to4 (2002::/16) and Teredo (2001::/32)
 * (which wrap an IPv4 address inside it) are all refused.
 */
const refusedV4 = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.31.196.0', 24],
  ['192.52.193.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['192.175.48.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  refusedV4.addSubnet(net, prefix, 'ipv4')

const globalV6 = new BlockList()
globalV6.addSubnet('2000::', 3, 'ipv6')
const refusedV6 = new BlockList()
for (const [net, prefix] of [
  ['2001::', 23], // IETF protocol assignments: Teredo (2001::/32), benchmarking, ORCHID...
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['3fff::', 20], // documentation
] as const)
  refusedV6.addSubnet(net, prefix, 'ipv6')

export function isPublicAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 4) return !refusedV4.check(address, 'ipv4')
  if (family === 6) return globalV6.check(address, 'ipv6') && !refusedV6.check(address, 'ipv6')
  return false
}

const refused = (message: string) => invalid(message)

/** Where fetches may go. Tests point it at a local server; everything else uses the default. */
export interface FetchPolicy {
  port: number
  isAllowedAddress: (address: string) => boolean
  /** Extra trusted certificate (a test server's). */
  ca?: string
}
const PUBLIC_HTTPS: FetchPolicy = { port: 443, isAllowedAddress: isPublicAddress }

/**
 * Downloads an https URL given by a user: port 443 only, global unicast addresses only (checked on
 * the address actually connected to, so DNS tricks don't help), no redirects, a byte limit, and one
 * deadline for the whole fetch (a server dripping bytes cannot hold it open).
 */
export function fetchRemote(
  rawUrl: string,
  options: { maxBytes: number; timeoutMs?: number },
  policy: FetchPolicy = PUBLIC_HTTPS,
): Promise<Uint8Array> {
  let url: URL
  try {
    url = new URL(rawUrl)
  } catch {
    return Promise.reject(refused('Not a valid link'))
  }
  if (url.protocol !== 'https:') return Promise.reject(refused('Only https links can be fetched'))
  if (Number(url.port || 443) !== policy.port) return Promise.reject(refused('Only links on the standard https port (443) can be fetched'))
  if (url.username || url.password) return Promise.reject(refused('Links with credentials are not fetched'))
  const literal = url.hostname.replace(/^\[|\]$/g, '')
  if (isIP(literal) && !policy.isAllowedAddress(literal)) return Promise.reject(refused('That address cannot be fetched'))

  return new Promise((resolve, reject) => {
    let settled = false
    const settle = (finish: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      finish()
    }
    const fail = (error: Error) => settle(() => reject(error))
    const request = get(
      url,
      {
        ...(policy.ca ? { ca: policy.ca } : {}),
        lookup: (hostname, lookupOptions, callback) =>
          dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses: LookupAddress[]) => {
            if (error) return callback(error, '', 0)
            const usable = addresses.filter((a) => policy.isAllowedAddress(a.address))
            if (usable.length === 0) return callback(refused('That address cannot be fetched'), '', 0)
            if (lookupOptions.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable)
            callback(null, usable[0]!.address, usable[0]!.family)
          }),
      },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume()
          return fail(refused(`The link answered ${response.statusCode}`))
        }
        const chunks: Buffer[] = []
        let size = 0
        response.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > options.maxBytes) {
            request.destroy()
            fail(tooLarge('The linked file is too large'))
          } else chunks.push(chunk)
        })
        response.on('end', () => settle(() => resolve(new Uint8Array(Buffer.concat(chunks)))))
        response.on('error', () => fail(refused('The link could not be read')))
      },
    )
    const deadline = setTimeout(() => {
      fail(refused('The link took too long to answer'))
      request.destroy()
    }, options.timeoutMs ?? 10_000)
    request.on('error', (error) => fail(error instanceof DomainError ? error : refused('The link could not be fetched')))
  })
}
