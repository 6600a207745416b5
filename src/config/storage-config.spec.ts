import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './config';

describe('upload storage and quota settings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'legwork-storage-config-'));
  const load = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, ...env });

  it('local disk by default, staging under DATA_DIR, quotas 2 uploads and 256 MiB a day', () => {
    const c = load({});
    expect(c.storage).toEqual({ driver: 'local' });
    expect(c.uploads).toEqual({
      stagingDir: join(dir, 'upload-staging'),
      maxConcurrentPerWorker: 2,
      dailyBytesPerWorker: 256 * 1024 * 1024,
    });
  });

  it('STORAGE=s3 reads the bucket, endpoint, path style, keys and URL lifetime', () => {
    expect(
      load({
        STORAGE: 's3',
        S3_BUCKET: 'proofs',
        S3_ENDPOINT: 'http://minio:9000',
        S3_REGION: 'cn-north-1',
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_SIGNED_URL_TTL_SECONDS: '60',
      }).storage,
    ).toEqual({
      driver: 's3',
      bucket: 'proofs',
      endpoint: 'http://minio:9000',
      region: 'cn-north-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      signedUrlTtlSeconds: 60,
    });
    // AWS S3 with the default credential chain: no endpoint, no keys.
    expect(load({ STORAGE: 's3', S3_BUCKET: 'proofs' }).storage).toMatchObject({
      endpoint: null,
      region: 'us-east-1',
      credentials: null,
      forcePathStyle: false,
      signedUrlTtlSeconds: 300,
    });
  });

  it.each([
    [{ STORAGE: 'gcs' }, 'STORAGE must be one of local, s3'],
    [{ STORAGE: 's3' }, 'S3_BUCKET is required when STORAGE=s3'],
    [{ STORAGE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'id' }, 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY'],
    [
      { STORAGE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'minio:9000' },
      'S3_ENDPOINT must be a http: or https: URL',
    ],
    [{ STORAGE: 's3', S3_BUCKET: 'b', S3_SIGNED_URL_TTL_SECONDS: '86400' }, 'S3_SIGNED_URL_TTL_SECONDS'],
    [{ UPLOAD_MAX_CONCURRENT_PER_WORKER: '0' }, 'UPLOAD_MAX_CONCURRENT_PER_WORKER'],
    [{ UPLOAD_DAILY_MB_PER_WORKER: 'lots' }, 'UPLOAD_DAILY_MB_PER_WORKER'],
  ])('refuses %j', (env, message) => {
    expect(() => load(env as Record<string, string>)).toThrow(message);
  });
});
