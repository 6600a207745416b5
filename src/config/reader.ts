/**
 * Reading the environment: each setting parsed and checked by one call, problems collected so that a bad
 * configuration is refused once with every problem listed. Its own module because every config module reads
 * through it (config.ts and payment-config.ts), and config.ts reads payment-config.ts: kept inside config.ts, the
 * two imported each other.
 */
export class ConfigError extends Error {
  constructor(problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}\nSee .env.example for every setting.`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

export class Reader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  str(name: string, fallback: string): string {
    const v = this.env[name];
    return v === undefined || v === '' ? fallback : v;
  }

  optional(name: string): string | null {
    const v = this.env[name];
    return v === undefined || v === '' ? null : v;
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      this.problems.push(`${name} must be an integer from ${min} to ${max} (got '${raw}')`);
      return fallback;
    }
    return n;
  }

  num(name: string, fallback: number, min: number, max: number): number {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min || n > max) {
      this.problems.push(`${name} must be a number from ${min} to ${max} (got '${raw}')`);
      return fallback;
    }
    return n;
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
    this.problems.push(`${name} must be true or false (got '${raw}')`);
    return fallback;
  }

  oneOf<T extends string>(name: string, fallback: T, allowed: readonly T[]): T {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')} (got '${raw}')`);
      return fallback;
    }
    return raw as T;
  }

  /** A comma-separated list whose items all come from `allowed`; duplicates removed, at least one item. */
  list<T extends string>(name: string, fallback: readonly T[], allowed: readonly T[]): T[] {
    const raw = this.optional(name);
    if (raw === null) return [...fallback];
    const items = [
      ...new Set(
        raw
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ];
    const bad = items.filter((i) => !(allowed as readonly string[]).includes(i));
    if (items.length === 0 || bad.length > 0) {
      this.problems.push(`${name} must list one or more of ${allowed.join(', ')} (got '${raw}')`);
      return [...fallback];
    }
    return items as T[];
  }

  url(name: string, protocols: string[]): string | null {
    const raw = this.optional(name);
    if (raw === null) return null;
    try {
      const u = new URL(raw);
      if (!protocols.includes(u.protocol)) throw new Error('protocol');
      return raw;
    } catch {
      this.problems.push(`${name} must be a ${protocols.join(' or ')} URL (got '${redact(raw)}')`);
      return null;
    }
  }
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
