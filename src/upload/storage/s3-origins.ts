import type { S3Settings } from './s3.storage';

/**
 * The origins a presigned URL of this bucket can have, for the Content Security Policy's `img-src`: the web apps
 * show proof photos through `/uploads/...`, which on S3 answers 302 to the bucket, and the browser checks the
 * redirect's target against `img-src` too. Both addressing styles are listed, because the SDK falls back from the
 * virtual-hosted form (bucket in the host name) to the path form for bucket names that are not DNS-safe, and a
 * policy naming both costs nothing.
 *
 * - a custom endpoint (MinIO, OSS, COS): the endpoint's origin, and `<bucket>.<endpoint host>`;
 * - AWS S3 itself: `https://<bucket>.s3.<region>.amazonaws.com` and `https://s3.<region>.amazonaws.com`.
 */
export function s3Origins(settings: Pick<S3Settings, 'endpoint' | 'bucket' | 'region'>): string[] {
  const base = new URL(settings.endpoint ?? `https://s3.${settings.region}.amazonaws.com`);
  const virtualHosted = new URL(base.origin);
  virtualHosted.hostname = `${settings.bucket}.${base.hostname}`;
  // An IP endpoint has no virtual-hosted form (the host setter refuses `<bucket>.127.0.0.1`): one origin then.
  return [...new Set([base.origin, virtualHosted.origin])];
}
