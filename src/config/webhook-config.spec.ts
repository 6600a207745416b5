import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { liveTestEnv } from '../../test/support/live-env';
import { ConfigError, loadConfig } from './config';

describe('webhook and scale-out settings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'legwork-webhook-config-'));

  it('live mode requires WEBHOOK_SECRET_KEY of at least 32 characters', () => {
    const { WEBHOOK_SECRET_KEY: _unset, ...env } = liveTestEnv();
    expect(() => loadConfig({ ...env, DATA_DIR: dir })).toThrow(
      'WEBHOOK_SECRET_KEY is required when PAYMENT_MODE=live',
    );
    expect(() => loadConfig({ ...env, DATA_DIR: dir, WEBHOOK_SECRET_KEY: 'short' })).toThrow(
      'WEBHOOK_SECRET_KEY must be at least 32 characters',
    );
    expect(loadConfig({ ...liveTestEnv(), DATA_DIR: dir }).webhooks.secretKey).toBe(
      liveTestEnv().WEBHOOK_SECRET_KEY,
    );
  });

  it('sandbox mode generates one under DATA_DIR and keeps it across restarts', () => {
    const env = { NODE_ENV: 'test', DATA_DIR: dir };
    const first = loadConfig(env).webhooks.secretKey;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig(env).webhooks.secretKey).toBe(first);
  });

  it('REDIS_KEY_PREFIX and INSTANCE_ID have defaults and the prefix is checked', () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dir });
    expect(config.redisKeyPrefix).toBe('legwork');
    expect(config.instanceId).toMatch(/:\d+$/);
    expect(loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, INSTANCE_ID: 'api-2' }).instanceId).toBe('api-2');
    expect(() => loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, REDIS_KEY_PREFIX: 'has space' })).toThrow(
      ConfigError,
    );
  });
});
