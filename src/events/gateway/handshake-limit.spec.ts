import { clientIp } from './handshake-limit';

describe('clientIp (as Express gives req.ip for the same TRUST_PROXY)', () => {
  it('without TRUST_PROXY, the peer address; X-Forwarded-For is anyone’s to write', () => {
    expect(clientIp('10.0.0.7', { 'x-forwarded-for': '203.0.113.9' }, false)).toBe('10.0.0.7');
  });

  it('with TRUST_PROXY, the left-most X-Forwarded-For entry', () => {
    expect(clientIp('10.0.0.7', { 'x-forwarded-for': ' 203.0.113.9 , 10.0.0.2' }, true)).toBe('203.0.113.9');
    expect(clientIp('10.0.0.7', { 'x-forwarded-for': ['198.51.100.4', '10.0.0.2'] }, true)).toBe(
      '198.51.100.4',
    );
  });

  it('with TRUST_PROXY but no (or an empty) header, the peer address', () => {
    expect(clientIp('10.0.0.7', {}, true)).toBe('10.0.0.7');
    expect(clientIp('10.0.0.7', { 'x-forwarded-for': '' }, true)).toBe('10.0.0.7');
  });
});
