import { describe, expect, it } from 'vitest'
import { addressKey } from './client-address'

describe('addressKey', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['::FFFF:cb00:7109', '203.0.113.9'],
    ['203.0.113.9:51234', '203.0.113.9'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2'],
    ['2001:0DB8:0001:0002::ffff', '2001:db8:1:2'],
    ['[2001:db8:1:2::7]:443', '2001:db8:1:2'],
    ['fe80::1%eth0', 'fe80:0:0:0'],
    ['2001:db8::1', '2001:db8:0:0'],
    ['64:ff9b::198.51.100.1', '64:ff9b:0:0'],
    ['::1', '0:0:0:0'],
    ['unknown', 'unknown'],
  ])('%s is known as %s', (address, key) => {
    expect(addressKey(address)).toBe(key)
  })
})
