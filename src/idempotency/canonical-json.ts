import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every level, so equal bodies hash equally whatever their key order. Written out
 * directly rather than by building sorted copies for JSON.stringify (a 30-field answer schema made that copy the
 * dearest part of a creation's key hash), with exactly JSON.stringify's text: stored request hashes stay valid.
 */
export function canonicalJson(value: unknown): string {
  return write(value) ?? 'null';
}

/** The value's JSON, or undefined where JSON.stringify leaves it out (undefined, a function, a symbol). */
function write(v: unknown): string | undefined {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (v instanceof Date) return JSON.stringify(v);
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i ? ',' : '') + (write(v[i]) ?? 'null');
    return out + ']';
  }
  const o = v as Record<string, unknown>;
  let out = '{';
  let first = true;
  for (const key of Object.keys(o).sort()) {
    const text = write(o[key]);
    if (text === undefined) continue;
    out += (first ? '' : ',') + JSON.stringify(key) + ':' + text;
    first = false;
  }
  return out + '}';
}

export function requestHash(...parts: unknown[]): string {
  return createHash('sha256').update(canonicalJson(parts)).digest('hex');
}
