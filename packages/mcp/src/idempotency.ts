import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level, so equal arguments give equal text whatever their order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The Idempotency-Key of a tool call that moves money: the caller's own, or one derived from the tool and its
 * arguments. A host that retries a call (a timeout, a reconnect) sends the same arguments, so the retry gets the same
 * key and the API replays the first answer instead of creating or charging twice. The API keeps a header key for
 * 24 hours and scopes it to the agent; to do the same thing twice on purpose, pass two different keys.
 */
export function idempotencyKeyFor(tool: string, args: object, given?: string): string {
  if (given) return given;
  const digest = createHash('sha256')
    .update(`${tool}\n${canonical(args)}`)
    .digest('hex');
  return `mcp-${tool}-${digest.slice(0, 40)}`;
}
