import { describe, expect, it } from 'vitest'
import { HttpError } from '../http/http-error'
import { fetchRemote, isPublicAddress } from './fetch-remote'

async function refusal(url: string): Promise<string> {
  try {
    await fetchRemote(url, { maxBytes: 1000, timeoutMs: 2000 })
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError)
    return (error as HttpError).message
  }
  throw new Error(`${url} was fetched`)
}

describe('fetchRemote', () => {
  it('refuses anything but https', async () => {
    expect(await refusal('http://example.com/a.json')).toMatch(/https/)
    expect(await refusal('file:///etc/passwd')).toMatch(/https/)
    expect(await refusal('not a url')).toMatch(/valid link/)
  })

  it('refuses private, loopback and link-local addresses, by literal or by name', async () => {
    for (const url of ['https://127.0.0.1/a.json', 'https://10.1.2.3/a.json', 'https://169.254.169.254/latest', 'https://[::1]/a.json', 'https://localhost/a.json']) {
      expect(await refusal(url)).toMatch(/cannot be fetched/)
    }
  })

  it('refuses links with credentials', async () => {
    expect(await refusal('https://user:pass@example.com/a.json')).toMatch(/credentials/)
  })
})

describe('isPublicAddress', () => {
  it('tells public from private addresses', () => {
    expect(isPublicAddress('93.184.216.34')).toBe(true)
    expect(isPublicAddress('2606:4700::1111')).toBe(true)
    for (const address of ['127.0.0.1', '10.0.0.1', '172.20.0.1', '192.168.1.1', '100.64.0.1', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', 'nonsense']) {
      expect(isPublicAddress(address)).toBe(false)
    }
  })
})
