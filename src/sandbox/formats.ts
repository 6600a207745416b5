import { randomBytes, randomInt } from 'node:crypto';

/**
 * Wire formats of the two providers, implemented for the sandbox on its own (the service has its own helpers): a
 * bug on one side then shows up as a contract-test failure instead of cancelling out.
 */

/** Alipay amounts are yuan strings with up to two decimals ("0.01" to "100000000.00"). Null when malformed. */
export function yuanToCents(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(value);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

export function centsToYuan(cents: number): string {
  const whole = Math.floor(cents / 100);
  return `${whole}.${String(cents % 100).padStart(2, '0')}`;
}

const BEIJING_OFFSET_MS = 8 * 3600 * 1000;

function beijingParts(date: Date): string[] {
  const iso = new Date(date.getTime() + BEIJING_OFFSET_MS).toISOString();
  return [iso.slice(0, 10), iso.slice(11, 19)];
}

/** "yyyy-MM-dd HH:mm:ss" in Beijing time, as Alipay writes times. */
export function alipayTime(date: Date): string {
  return beijingParts(date).join(' ');
}

export function parseAlipayTime(value: string): Date | null {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(value);
  if (!m) return null;
  const d = new Date(`${m[1]}T${m[2]}+08:00`);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** RFC 3339 with the +08:00 offset, as WeChat Pay writes times. */
export function wechatTime(date: Date): string {
  return `${beijingParts(date).join('T')}+08:00`;
}

export function parseRfc3339(value: unknown): Date | null {
  if (
    typeof value !== 'string' ||
    !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value)
  ) {
    return null;
  }
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** Alipay's relative timeout_express: "90m", "2h", "1d", "1c" (until end of day; treated as 24h). */
export function parseTimeoutExpress(value: string): number | null {
  const m = /^(\d{1,4})([mhdc])$/.exec(value);
  if (!m) return null;
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, c: 86_400_000 }[m[2] as 'm' | 'h' | 'd' | 'c'];
  return Number(m[1]) * unit;
}

export function randomDigits(count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += String(randomInt(10));
  return out;
}

export function randomToken(bytes = 12): string {
  return randomBytes(bytes).toString('base64url');
}

export function nonceString(length: number): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  for (let i = 0; i < length; i++) out += chars[randomInt(chars.length)];
  return out;
}

/** yyyyMMdd of a date in Beijing time, used as a prefix of provider-side ids. */
export function beijingDate(date: Date): string {
  return beijingParts(date)[0].replace(/-/g, '');
}
