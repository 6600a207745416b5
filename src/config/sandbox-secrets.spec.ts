import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './config';
import { createOnce } from './write-once';

describe('sandbox secrets under the data directory', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'legwork-secrets-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const file = () => join(dir, 'secrets.json');
  const onDisk = () => JSON.parse(readFileSync(file(), 'utf8')) as Record<string, string>;
  const secretsOf = (env: Record<string, string>) => {
    const c = loadConfig({ DATA_DIR: dir, ...env });
    return [c.jwt.accessSecret, c.jwt.refreshSecret, c.webhooks.secretKey, c.webPush.privateKey];
  };

  it('are created all at once, private, and read back unchanged by the next start', () => {
    const first = secretsOf({});
    expect(Object.keys(onDisk()).sort()).toEqual([
      'JWT_ACCESS_SECRET',
      'JWT_REFRESH_SECRET',
      'VAPID_PRIVATE_KEY',
      'WEBHOOK_SECRET_KEY',
    ]);
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    expect(new Set(first).size).toBe(4);
    expect(secretsOf({})).toEqual(first);
  });

  it("are another process's when its file got there first, and a file from before a secret existed gets it added", () => {
    writeFileSync(
      file(),
      JSON.stringify({ JWT_ACCESS_SECRET: 'a'.repeat(64), JWT_REFRESH_SECRET: 'r'.repeat(64) }),
    );
    const [access, refresh, webhook, vapid] = secretsOf({});
    expect([access, refresh]).toEqual(['a'.repeat(64), 'r'.repeat(64)]);
    expect(onDisk()).toEqual({
      JWT_ACCESS_SECRET: access,
      JWT_REFRESH_SECRET: refresh,
      WEBHOOK_SECRET_KEY: webhook,
      VAPID_PRIVATE_KEY: vapid,
    });
  });

  it('createOnce keeps the first file written and says which call wrote it', () => {
    expect(createOnce(file(), 'first')).toBe(true);
    expect(createOnce(file(), 'second')).toBe(false);
    expect(readFileSync(file(), 'utf8')).toBe('first');
  });
});
