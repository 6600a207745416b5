/**
 * How deeply JSON may nest. Recursive code runs over every parsed body (class-validator, the idempotency request
 * hash, JSON.stringify on the way to the database): a few thousand levels, 30 KB of brackets, overflow the stack.
 * No request of this API needs more than a handful of levels; 32 leaves result_data room.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * True when `value` nests objects or arrays more than `max` levels deep (`{}` and `[]` are one level, a scalar
 * none). Iterative, so it cannot overflow the stack on the input it exists to refuse, and it stops at the first
 * path that goes too deep.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
