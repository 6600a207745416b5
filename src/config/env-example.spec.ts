import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { loadConfig } from './config';

/**
 * .env.example is the list of settings (README, ConfigError's "See .env.example"): every variable the config reads
 * is in it, the ports are listed together, next to PORT, and copied to `.env` it is a valid configuration.
 */
const root = join(__dirname, '../..');
const example = readFileSync(join(root, '.env.example'), 'utf8');

/** Every variable name the config modules read, from their sources (Reader calls and the helpers over it). */
function variablesRead(): string[] {
  const names = new Set<string>();
  for (const file of readdirSync(__dirname).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))) {
    const source = readFileSync(join(__dirname, file), 'utf8');
    for (const m of source.matchAll(/\br\.(?:str|optional|int|num|bool|oneOf|list|url)\('([A-Z0-9_]+)'/g))
      names.add(m[1]);
    for (const m of source.matchAll(/\brequired\(r, '([A-Z0-9_]+)'/g)) names.add(m[1]);
    // A key given inline or as a file: NAME and NAME_FILE.
    for (const m of source.matchAll(/\bpemKey\(r, '([A-Z0-9_]+)'/g)) names.add(m[1]).add(`${m[1]}_FILE`);
  }
  return [...names].sort();
}

describe('.env.example', () => {
  const listed = new Set([...example.matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]));

  it('lists every variable the config reads', () => {
    const read = variablesRead();
    expect(read.length).toBeGreaterThan(40);
    expect(read.filter((name) => !listed.has(name) && !example.includes(`${name}=`))).toEqual([]);
  });

  it('lists every port variable in the paragraph of PORT', () => {
    const ports = variablesRead().filter((name) => name === 'PORT' || name.endsWith('_PORT'));
    const paragraph = example.split(/\n\n/).find((p) => /^PORT=/m.test(p)) ?? '';
    expect(ports.filter((name) => !new RegExp(`^#? ?${name}=`, 'm').test(paragraph))).toEqual([]);
  });

  it('copied to .env is a valid configuration (parsed as process.loadEnvFile parses it)', () => {
    const parsed = parseEnv(example);
    expect(parsed).toMatchObject({ PORT: '8000', EMBEDDED_PG_PORT: '54329', PAYMENT_MODE: 'sandbox' });
    const dir = mkdtempSync(join(tmpdir(), 'legwork-env-example-'));
    try {
      expect(loadConfig({ ...parsed, DATA_DIR: dir })).toMatchObject({ port: 8000, embeddedPgPort: 54329 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
