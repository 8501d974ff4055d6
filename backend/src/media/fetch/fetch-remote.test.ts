import type { ServerResponse } from 'node:http'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DomainError } from '../../domain/errors'
import { fetchRemote, isPublicAddress, type FetchPolicy } from './fetch-remote'
import { LOCALHOST_TLS } from '../../../test/fixtures/tls'

async function refusal(url: string, policy?: FetchPolicy, timeoutMs = 2000): Promise<DomainError> {
  try {
    await fetchRemote(url, { maxBytes: 1000, timeoutMs }, policy)
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError)
    return error as DomainError
  }
  throw new Error(`${url} was fetched`)
}

describe('fetchRemote', () => {
  it('refuses anything but https', async () => {
    expect((await refusal('http://example.com/a.json')).message).toMatch(/https/)
    expect((await refusal('file:///etc/passwd')).message).toMatch(/https/)
    expect((await refusal('not a url')).message).toMatch(/valid link/)
  })

  it('refuses any port but 443', async () => {
    for (const url of ['https://example.com:8443/a.json', 'https://example.com:22/a.json', 'https://93.184.216.34:444/a.json']) {
      expect((await refusal(url)).message).toMatch(/port \(443\)/)
    }
  })

  it('refuses private, loopback, link-local and wrapped-IPv4 addresses, by literal or by name', async () => {
    const urls = [
      'https://127.0.0.1/a.json',
      'https://10.1.2.3/a.json',
      'https://169.254.169.254/latest',
      'https://[::1]/a.json',
      'https://localhost/a.json',
      'https://[64:ff9b::7f00:1]/a.json', // NAT64 of 127.0.0.1
      'https://[2002:7f00:1::]/a.json', // 6to4 of 127.0.0.1
      'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/a.json', // Teredo
      'https://[::7f00:1]/a.json', // IPv4-compatible
      'https://[::ffff:127.0.0.1]/a.json', // IPv4-mapped
    ]
    for (const url of urls) expect((await refusal(url)).message, url).toMatch(/cannot be fetched/)
  })

  it('refuses links with credentials', async () => {
    expect((await refusal('https://user:pass@example.com/a.json')).message).toMatch(/credentials/)
  })
})

describe('fetchRemote against a server (allowed for the test)', () => {
  let server: Server
  let policy: FetchPolicy
  const base = () => `https://127.0.0.1:${policy.port}`
  const drips = new Set<ServerResponse>()

  beforeAll(async () => {
    server = createServer(LOCALHOST_TLS, (req, res) => {
      if (req.url === '/lottie.json') return void res.end('{"v":"5.7.4"}')
      if (req.url === '/big.json') return void res.end('x'.repeat(5000))
      if (req.url === '/moved') return void res.writeHead(302, { location: '/lottie.json' }).end()
      // A byte every 100 ms, for ever: never idle, never done.
      res.writeHead(200)
      drips.add(res)
      const timer = setInterval(() => res.write(' '), 100)
      res.on('close', () => clearInterval(timer))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    policy = {
      port: (server.address() as AddressInfo).port,
      isAllowedAddress: (address) => address === '127.0.0.1',
      ca: LOCALHOST_TLS.cert,
    }
  })
  afterAll(async () => {
    for (const res of drips) res.destroy()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  it('downloads, and refuses redirects and files above the limit', async () => {
    expect(new TextDecoder().decode(await fetchRemote(`${base()}/lottie.json`, { maxBytes: 1000 }, policy))).toBe('{"v":"5.7.4"}')
    expect((await refusal(`${base()}/moved`, policy)).message).toMatch(/answered 302/)
    expect((await refusal(`${base()}/big.json`, policy)).kind).toBe('too-large')
  })

  it('gives up at one deadline for the whole fetch, even while bytes keep coming', async () => {
    // An idle timeout would never fire here: the server sends something every 100 ms.
    const error = await refusal(`${base()}/drip`, policy, 700)
    expect(error.message).toMatch(/too long/)
  })
})

describe('isPublicAddress', () => {
  it('allows only global unicast addresses', () => {
    for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700::1111', '2a00:1450:4001::200e'])
      expect(isPublicAddress(address), address).toBe(true)
    const refused = [
      '127.0.0.1',
      '10.0.0.1',
      '172.20.0.1',
      '192.168.1.1',
      '100.64.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '224.0.0.1',
      '198.18.0.1',
      '192.0.2.1',
      '198.51.100.7',
      '203.0.113.9',
      '192.88.99.1',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:93.184.216.34',
      '::7f00:1',
      '64:ff9b::7f00:1',
      '64:ff9b:1::1',
      '2002:7f00:1::',
      '2001::1',
      '2001:db8::1',
      '3fff::1',
      '100::1',
      'nonsense',
    ]
    for (const address of refused) expect(isPublicAddress(address), address).toBe(false)
  })
})
