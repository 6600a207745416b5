import { ApiError } from '../../common/errors/api-error';
import { Logger } from '../../common/logging/logger';
import { loadConfig } from '../../config/config';
import { liveTestEnv } from '../../../test/support/live-env';
import { createSmsGateway } from '../worker.module';
import { SandboxSmsGateway, UnconfiguredSmsGateway } from './sms-gateway';

const SECRETS = {
  JWT_ACCESS_SECRET: 'unit-access-secret-0123456789abcdefghijklmnop',
  JWT_REFRESH_SECRET: 'unit-refresh-secret-0123456789abcdefghijklmno',
  DATABASE_URL: 'postgres://localhost:5432/unused',
  NODE_ENV: 'test',
};
const message = {
  template: 'verification_code' as const,
  params: { code: '123456', purpose: 'register', ttl_minutes: 5 },
  text: 'code 123456',
};

describe('SMS gateway selection', () => {
  const logger = new Logger('silent');

  it('sandbox mode logs the message instead of sending it', async () => {
    const gateway = createSmsGateway(loadConfig({ ...SECRETS, PAYMENT_MODE: 'sandbox' }), logger);
    expect(gateway).toBeInstanceOf(SandboxSmsGateway);
    const info = jest.spyOn(logger, 'info');
    await gateway.send('13800138000', message);
    expect(info).toHaveBeenCalledWith(
      expect.objectContaining({ sms_to: '13800138000', sms_params: message.params }),
      'sandbox SMS (not sent)',
    );
  });

  it('live mode without a provider boots, and every send is 503 service_unavailable', async () => {
    const gateway = createSmsGateway(loadConfig(liveTestEnv()), logger);
    expect(gateway).toBeInstanceOf(UnconfiguredSmsGateway);
    const err: unknown = await gateway.send('13800138000', message).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'service_unavailable', status: 503, extra: { retry_after: 300 } });
  });
});
