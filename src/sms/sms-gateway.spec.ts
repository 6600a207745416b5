import { DataSource } from 'typeorm';
import { Clock } from '../common/clock';
import { ApiError } from '../common/errors/api-error';
import { Logger } from '../common/logging/logger';
import { loadConfig } from '../config/config';
import { liveTestEnv } from '../../test/support/live-env';
import { AliyunSmsGateway } from './aliyun-sms-gateway';
import { SandboxSmsGateway } from './sandbox-outbox';
import { UnconfiguredSmsGateway } from './sms-gateway';
import { verificationMessage } from './sms-message';
import { createSmsGateway } from './sms.module';

describe('SMS gateway selection', () => {
  const logger = new Logger('silent');
  const ds = new DataSource({ type: 'postgres' });
  const gatewayFor = (env: Record<string, string>) =>
    createSmsGateway(loadConfig(env), ds, new Clock(), logger);

  it('sandbox mode keeps messages in the outbox', () => {
    const gateway = gatewayFor({
      NODE_ENV: 'test',
      JWT_ACCESS_SECRET: 'unit-access-secret-0123456789abcdefghijklmnop',
      JWT_REFRESH_SECRET: 'unit-refresh-secret-0123456789abcdefghijklmno',
      WEBHOOK_SECRET_KEY: 'unit-webhook-secret-key-0123456789abcdefghijk',
      VAPID_PRIVATE_KEY: 'Z-_D2lNKUP3U1P7TWMvEoE1C_ksqkWalSKQYZdHW3ok',
    });
    expect(gateway).toBeInstanceOf(SandboxSmsGateway);
  });

  it('live mode sends through Aliyun SMS', () => {
    expect(gatewayFor(liveTestEnv())).toBeInstanceOf(AliyunSmsGateway);
  });

  it('live mode with SMS_PROVIDER=none boots, and every send is 503 service_unavailable', async () => {
    const gateway = gatewayFor(liveTestEnv({ SMS_PROVIDER: 'none' }));
    expect(gateway).toBeInstanceOf(UnconfiguredSmsGateway);
    const err: unknown = await gateway
      .send('13800138000', verificationMessage('123456', 'register', 5))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'service_unavailable', status: 503, extra: { retry_after: 300 } });
  });
});
