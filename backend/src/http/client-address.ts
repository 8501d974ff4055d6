import { isIP } from 'node:net'

/**
 * Who a client is, as far as per-address limits and counting go: an IPv4 address, or the /64 of an IPv6
 * one (a host is given a whole /64 and can rotate through it). IPv4-mapped IPv6 (`::ffff:203.0.113.9`,
 * as a dual-stack socket reports IPv4 peers) is the IPv4 address. A port some balancers add
 * (`203.0.113.9:443`, `[2001:db8::1]:443`) is dropped; anything that is not an address is kept as is.
 */
export function addressKey(address: string): string {
  const bare = withoutPort(address.trim())
  const version = isIP(bare)
  if (version === 4) return bare
  if (version !== 6) return bare.toLowerCase().slice(0, 100)
  const groups = ipv6Groups(bare.split('%')[0]!)
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff
  if (mapped) return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.')
  return groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')
}

function withoutPort(address: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address)
  if (bracketed) return bracketed[1]!
  const v4 = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(address)
  return v4 ? v4[1]! : address
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail made two groups). */
function ipv6Groups(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address)
  const text = dotted
    ? address.slice(0, dotted.index) +
      [(+dotted[1]! << 8) | +dotted[2]!, (+dotted[3]! << 8) | +dotted[4]!].map((g) => g.toString(16)).join(':')
    : address
  const [head = '', tail] = text.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0')
  return [...left, ...middle, ...right].map((g) => parseInt(g, 16))
}
