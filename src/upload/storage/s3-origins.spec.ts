import { s3Origins } from './s3-origins';

describe('s3Origins (the img-src of the web apps with STORAGE=s3)', () => {
  it('AWS S3: the bucket host and the regional path-style host', () => {
    expect(s3Origins({ endpoint: null, bucket: 'proofs', region: 'ap-east-1' })).toEqual([
      'https://s3.ap-east-1.amazonaws.com',
      'https://proofs.s3.ap-east-1.amazonaws.com',
    ]);
  });

  it('a custom endpoint: its origin (with the port) and the bucket under its host name', () => {
    expect(
      s3Origins({ endpoint: 'https://oss-cn-hangzhou.aliyuncs.com/', bucket: 'legwork', region: 'x' }),
    ).toEqual(['https://oss-cn-hangzhou.aliyuncs.com', 'https://legwork.oss-cn-hangzhou.aliyuncs.com']);
    expect(s3Origins({ endpoint: 'http://minio:9000', bucket: 'b', region: 'us-east-1' })).toEqual([
      'http://minio:9000',
      'http://b.minio:9000',
    ]);
  });

  it('an IP endpoint: only its own origin', () => {
    expect(s3Origins({ endpoint: 'http://127.0.0.1:4569', bucket: 'b', region: 'us-east-1' })).toEqual([
      'http://127.0.0.1:4569',
    ]);
  });
});
