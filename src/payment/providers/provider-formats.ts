/**
 * Amount and time formats on the providers' wire, service side (the sandbox keeps its own copy on purpose).
 * Alipay: yuan strings with two decimals and "yyyy-MM-dd HH:mm:ss" Beijing time; WeChat: integer fen and RFC 3339.
 */
export function centsToYuan(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`not an amount of cents: ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** Parses "12", "12.3" or "12.34" yuan into cents without floating point; null when malformed. */
export function yuanToCents(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!m) return null;
  const cents = Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

const BEIJING_MS = 8 * 3600 * 1000;

function beijing(date: Date): [string, string] {
  const iso = new Date(date.getTime() + BEIJING_MS).toISOString();
  return [iso.slice(0, 10), iso.slice(11, 19)];
}

export function toAlipayTime(date: Date): string {
  return beijing(date).join(' ');
}

/** Parses Alipay's Beijing-time "yyyy-MM-dd HH:mm:ss"; null when malformed. */
export function fromAlipayTime(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(value);
  if (!m) return null;
  const d = new Date(`${m[1]}T${m[2]}+08:00`);
  return Number.isNaN(d.getTime()) ? null : d;
}

export function toRfc3339Beijing(date: Date): string {
  return `${beijing(date).join('T')}+08:00`;
}

export function fromRfc3339(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}
