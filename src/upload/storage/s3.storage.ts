import {
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import type { StorageSettings } from '../../config/config';
import { FileStorage, isStorageKey, Presentation, StoredFile } from './file-storage';

export type S3Settings = Extract<StorageSettings, { driver: 's3' }>;

/**
 * Files in an S3-compatible bucket (AWS S3, MinIO, Aliyun OSS, Tencent COS), shared by every API instance. Clients
 * get the bytes from the store itself through short-lived presigned GET URLs (UploadsServeController redirects to
 * one), so file traffic does not pass through the API.
 *
 * Checksums are computed only where an operation requires them: since 3.729 the SDK otherwise sends every upload
 * as aws-chunked with a CRC32 trailer, which several S3-compatible stores do not accept. Integrity is still
 * covered: the file's SHA-256 is recorded at upload, and PutObject carries its exact Content-Length.
 */
export class S3Storage extends FileStorage {
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    super();
    this.client = new S3Client({
      endpoint: settings.endpoint ?? undefined,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: settings.credentials ?? undefined,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Readable | Buffer, size: number, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: checked(key),
        Body: body,
        ContentLength: size,
        ContentType: contentType,
      }),
    );
  }

  async open(key: string): Promise<StoredFile | null> {
    let out: GetObjectCommandOutput;
    try {
      out = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: checked(key) }));
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
    return { stream: out.Body as Readable, size: Number(out.ContentLength ?? 0) };
  }

  async remove(key: string): Promise<void> {
    // DeleteObject of a missing key succeeds on S3 and the compatible stores.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: checked(key) }));
  }

  /**
   * A presigned GET valid for S3_SIGNED_URL_TTL_SECONDS. The response type and disposition are part of the
   * signature, so the store serves the file as the type detected at upload, whatever it was stored with.
   */
  async signedUrl(key: string, p: Presentation): Promise<string> {
    const get = new GetObjectCommand({
      Bucket: this.settings.bucket,
      Key: checked(key),
      ResponseContentType: p.contentType,
      ResponseContentDisposition: p.disposition,
      ResponseCacheControl: 'private, no-store',
    });
    return getSignedUrl(this.client, get, { expiresIn: this.settings.signedUrlTtlSeconds });
  }

  override async close(): Promise<void> {
    this.client.destroy();
  }
}

function checked(key: string): string {
  if (!isStorageKey(key)) throw new Error(`not a storage key: ${JSON.stringify(key)}`);
  return key;
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}
