/**
 * Parsing and classification of IP addresses for outbound webhook safety (SSRF). Every spelling an OS resolver or a
 * URL parser accepts must land in the same class: `127.0.0.1`, `2130706433`, `0177.0.0.1`, `0x7f.1`, `127.1` and
 * `::ffff:127.0.0.1` are all loopback. Classification works on bytes, never on strings.
 */
export type IpClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'cgnat'
  | 'unique_local'
  | 'link_local'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'reserved';

export interface ParsedIp {
  family: 4 | 6;
  bytes: Uint8Array;
}

/**
 * IPv4 with inet_aton semantics: 1 to 4 parts, each decimal, octal (leading 0) or hex (0x); the last part fills the
 * remaining bytes (`127.1` = 127.0.0.1, `2130706433` = 127.0.0.1). Returns null for anything else.
 */
export function parseIPv4(input: string): Uint8Array | null {
  const parts = input.split('.');
  if (parts.length < 1 || parts.length > 4) return null;
  const values: number[] = [];
  for (const part of parts) {
    const value = parseIPv4Part(part);
    if (value === null) return null;
    values.push(value);
  }
  const last = values.pop()!;
  if (values.some((v) => v > 255)) return null;
  const lastBytes = 4 - values.length;
  if (last >= 2 ** (8 * lastBytes)) return null;
  const out = new Uint8Array(4);
  values.forEach((v, i) => (out[i] = v));
  for (let i = 0; i < lastBytes; i++) out[3 - i] = Math.floor(last / 2 ** (8 * i)) % 256;
  return out;
}

function parseIPv4Part(part: string): number | null {
  let digits: string;
  let radix: number;
  if (/^0x[0-9a-f]*$/i.test(part)) {
    digits = part.slice(2) || '0';
    radix = 16;
  } else if (/^0[0-7]+$/.test(part)) {
    digits = part.slice(1);
    radix = 8;
  } else if (/^(0|[1-9][0-9]*)$/.test(part)) {
    digits = part;
    radix = 10;
  } else {
    return null;
  }
  const value = parseInt(digits, radix);
  return Number.isSafeInteger(value) && value <= 0xffffffff ? value : null;
}

/** IPv6 in any RFC 4291 text form, including `::` compression, a dotted IPv4 tail and a `%zone` suffix. */
export function parseIPv6(input: string): Uint8Array | null {
  let text = input.startsWith('[') && input.endsWith(']') ? input.slice(1, -1) : input;
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  if (!/^[0-9a-f:.]+$/i.test(text) || !text.includes(':')) return null;

  let tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const after = text.slice(lastColon + 1);
  if (after.includes('.')) {
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(after)) return null;
    const octets = after.split('.').map(Number);
    if (octets.some((o) => o > 255)) return null;
    tail = [(octets[0] << 8) | octets[1], (octets[2] << 8) | octets[3]];
    // Keep '::' when the IPv4 tail directly follows it, otherwise drop the separating colon.
    text = text.slice(0, lastColon + 1);
    if (!text.endsWith('::')) text = text.slice(0, -1);
  }

  const halves = text.split('::');
  if (halves.length > 2) return null;
  const group = (s: string): number[] | null => {
    if (s === '') return [];
    const out: number[] = [];
    for (const g of s.split(':')) {
      if (!/^[0-9a-f]{1,4}$/i.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = group(halves[0]);
  const rest = halves.length === 2 ? group(halves[1]) : [];
  if (!head || !rest) return null;
  const explicit = head.length + rest.length + tail.length;
  let groups: number[];
  if (halves.length === 2) {
    if (explicit > 7) return null;
    groups = [...head, ...new Array<number>(8 - explicit).fill(0), ...rest, ...tail];
  } else {
    if (explicit !== 8) return null;
    groups = [...head, ...tail];
  }
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[2 * i] = g >> 8;
    bytes[2 * i + 1] = g & 0xff;
  });
  return bytes;
}

/** An IP literal in any accepted spelling, or null when the text is a host name. */
export function parseIp(input: string): ParsedIp | null {
  const v6 = parseIPv6(input);
  if (v6) return { family: 6, bytes: v6 };
  const v4 = parseIPv4(input);
  return v4 ? { family: 4, bytes: v4 } : null;
}

const inV4 = (b: Uint8Array, prefix: number[], bits: number): boolean => matches(b, prefix, bits);

function matches(bytes: Uint8Array, prefix: number[], bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const mask = 0x80 >> (i & 7);
    if ((bytes[byte] & mask) !== ((prefix[byte] ?? 0) & mask)) return false;
  }
  return true;
}

export function classifyIPv4(b: Uint8Array): IpClass {
  if (inV4(b, [0], 8)) return 'unspecified';
  if (inV4(b, [127], 8)) return 'loopback';
  if (inV4(b, [10], 8) || inV4(b, [172, 16], 12) || inV4(b, [192, 168], 16)) return 'private';
  if (inV4(b, [100, 64], 10)) return 'cgnat';
  if (inV4(b, [169, 254], 16)) return 'link_local';
  if (inV4(b, [224], 4)) return 'multicast';
  if (inV4(b, [255, 255, 255, 255], 32)) return 'broadcast';
  if (
    inV4(b, [240], 4) || // future use
    inV4(b, [192, 0, 0], 24) || // IETF protocol assignments
    inV4(b, [192, 0, 2], 24) || // TEST-NET-1
    inV4(b, [198, 51, 100], 24) || // TEST-NET-2
    inV4(b, [203, 0, 113], 24) || // TEST-NET-3
    inV4(b, [198, 18], 15) || // benchmarking
    inV4(b, [192, 88, 99], 24) // 6to4 relay anycast
  ) {
    return 'reserved';
  }
  return 'public';
}

/**
 * IPv6, with every form that embeds an IPv4 address (mapped, compatible, NAT64, 6to4) classified by the embedded
 * address, so `::ffff:10.0.0.1` and `64:ff9b::a00:1` are private like 10.0.0.1.
 */
export function classifyIPv6(b: Uint8Array): IpClass {
  const v6 = (prefix: number[], bits: number) => matches(b, prefix, bits);
  if (b.every((x) => x === 0)) return 'unspecified';
  if (v6([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 128)) return 'loopback';
  if (v6([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96)) return classifyIPv4(b.slice(12));
  if (v6([], 96)) return classifyIPv4(b.slice(12)); // IPv4-compatible (deprecated)
  if (v6([0, 0x64, 0xff, 0x9b], 96)) return classifyIPv4(b.slice(12)); // NAT64 well-known prefix
  if (v6([0x20, 0x02], 16)) return classifyIPv4(b.slice(2, 6)); // 6to4
  if (v6([0xfe, 0x80], 10)) return 'link_local';
  if (v6([0xfc], 7)) return 'unique_local';
  if (v6([0xff], 8)) return 'multicast';
  if (
    v6([0xfe, 0xc0], 10) || // site-local (deprecated)
    v6([0, 0x64, 0xff, 0x9b, 0, 1], 48) || // local-use NAT64
    v6([0x01, 0, 0, 0, 0, 0, 0, 0], 64) || // discard-only
    v6([0x20, 0x01, 0x0d, 0xb8], 32) || // documentation
    v6([0x20, 0x01, 0, 0], 32) || // Teredo: the embedded client address is obfuscated, so refuse it outright
    v6([], 8) // the rest of ::/8 is reserved
  ) {
    return 'reserved';
  }
  return 'public';
}

export function classifyIp(ip: ParsedIp): IpClass {
  return ip.family === 4 ? classifyIPv4(ip.bytes) : classifyIPv6(ip.bytes);
}

/** Classifies an address text; a text that is not an IP address is 'reserved' (never trusted). */
export function classifyAddress(address: string): IpClass {
  const ip = parseIp(address);
  return ip ? classifyIp(ip) : 'reserved';
}
