import { isIP } from 'node:net';
import { classifyAddress, parseIPv4, parseIPv6, parseIp } from './ip-address';

const dotted = (b: Uint8Array | null) => (b ? Array.from(b).join('.') : null);

describe('parseIPv4 (inet_aton spellings)', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0x7f.0.0.1', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['10.1.258', '10.1.1.2'],
    ['017700000001', '127.0.0.1'],
    ['0', '0.0.0.0'],
    ['167772161', '10.0.0.1'],
    ['0xa9.0xfe.0xa9.0xfe', '169.254.169.254'],
    ['1.2.3.0x', '1.2.3.0'], // a bare 0x reads as 0, as in inet_aton and the URL parser
  ])('%s is %s', (input, expected) => {
    expect(dotted(parseIPv4(input))).toBe(expected);
  });

  it.each(['256.0.0.1', '1.2.3.4.5', '4294967296', '08.0.0.1', 'example.com', '1..2', '', '-1', '1.2.3.x'])(
    '%s is not an IPv4 address',
    (input) => expect(parseIPv4(input)).toBeNull(),
  );
});

describe('parseIPv6', () => {
  const hex = (b: Uint8Array | null) => (b ? Buffer.from(b).toString('hex') : null);
  it.each([
    ['::1', '00000000000000000000000000000001'],
    ['::', '00000000000000000000000000000000'],
    ['[::1]', '00000000000000000000000000000001'],
    ['::ffff:127.0.0.1', '00000000000000000000ffff7f000001'],
    ['::ffff:7f00:1', '00000000000000000000ffff7f000001'],
    ['0:0:0:0:0:ffff:127.0.0.1', '00000000000000000000ffff7f000001'],
    ['fe80::1%eth0', 'fe800000000000000000000000000001'],
    ['2001:db8::8a2e:370:7334', '20010db80000000000008a2e03707334'],
    ['1:2:3:4:5:6:7::', '00010002000300040005000600070000'],
  ])('%s', (input, expected) => {
    expect(hex(parseIPv6(input))).toBe(expected);
  });

  it.each([
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    ':1::',
    '1::2:',
    '12345::',
    'g::1',
    '127.0.0.1',
    '::ffff:300.0.0.1',
  ])('%s is not an IPv6 address', (input) => expect(parseIPv6(input)).toBeNull());

  it('agrees with node:net on which texts are IPv6', () => {
    for (const s of [
      '::1',
      '1::',
      '::ffff:1.2.3.4',
      'a:b:c:d:e:f:1:2',
      '1:2:3:4:5:6:1.2.3.4',
      ':::',
      '1:::2',
    ]) {
      expect(parseIPv6(s) !== null).toBe(isIP(s) === 6);
    }
  });
});

describe('classifyAddress', () => {
  it.each([
    // loopback in every spelling
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['2130706433', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['0x7f.1', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['2002:7f00:1::', 'loopback'],
    // private
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:192.168.0.1', 'private'],
    ['167772161', 'private'],
    // neighbours of the private ranges are public
    ['172.15.255.255', 'public'],
    ['172.32.0.0', 'public'],
    ['11.0.0.1', 'public'],
    ['192.169.0.1', 'public'],
    // CGNAT
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['100.128.0.0', 'public'],
    ['100.63.255.255', 'public'],
    // link-local (cloud metadata lives here)
    ['169.254.169.254', 'link_local'],
    ['0xa9fea9fe', 'link_local'],
    ['::ffff:169.254.169.254', 'link_local'],
    ['fe80::1', 'link_local'],
    ['febf:ffff::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    // unique local
    ['fc00::1', 'unique_local'],
    ['fd12:3456:789a::1', 'unique_local'],
    // unspecified, multicast, broadcast, reserved
    ['0.0.0.0', 'unspecified'],
    ['0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.255', 'multicast'],
    ['ff02::1', 'multicast'],
    ['::ffff:224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['2001:0::1', 'reserved'],
    ['fec0::1', 'reserved'],
    ['64:ff9b:1::1', 'reserved'],
    ['not-an-ip', 'reserved'],
    // public
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['1.1.1.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::808:808', 'public'],
    ['2002:808:808::1', 'public'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it('parses what the WHATWG URL parser normalises hosts to', () => {
    for (const raw of [
      'http://2130706433/',
      'http://0177.0.0.1/',
      'http://0x7f.1/',
      'http://[::ffff:127.0.0.1]/',
    ]) {
      const host = new URL(raw).hostname;
      expect(parseIp(host)).not.toBeNull();
      expect(classifyAddress(host)).toBe('loopback');
    }
  });
});
