import { ApiError } from '../../src/common/errors/api-error';
import { Logger } from '../../src/common/logging/logger';
import type { AliyunSmsSettings } from '../../src/config/notification-config';
import { AliyunSmsGateway } from '../../src/sms/aliyun-sms-gateway';
import { moneyMessage, offerMessage, verificationMessage } from '../../src/sms/sms-message';
import { type FakeAliyunSms, startFakeAliyunSms } from './aliyun-sms-fake';

/**
 * Contract: the service's Aliyun SMS gateway (the official SDK, @alicloud/dysmsapi20170525) against a loopback fake
 * of SendSms that verifies the SDK's request signature independently (aliyun-sms-fake.ts) and checks the message
 * against the approved templates, over real HTTP. Refusals come back as provider_error with Aliyun's code.
 */
jest.setTimeout(20000);

const SECRET = 'fake-access-key-secret-0123456789';
const TEMPLATES = { verification: 'SMS_465300001', offer: 'SMS_465300002', money: 'SMS_465300003' };
const ASSIGNMENT = '7a0a4c4e-2b1d-4b8e-9a57-2f0b3c1d4e5f';

let fake: FakeAliyunSms;
beforeAll(async () => {
  fake = await startFakeAliyunSms({
    accessKeyId: 'LTAI5tContractKey',
    accessKeySecret: SECRET,
    signName: '跑腿网',
    templates: {
      [TEMPLATES.verification]: ['code'],
      [TEMPLATES.offer]: ['amount', 'id'],
      [TEMPLATES.money]: ['id'],
    },
  });
});
afterAll(() => fake.stop());

function gateway(over: Partial<AliyunSmsSettings> = {}): AliyunSmsGateway {
  return new AliyunSmsGateway(
    {
      endpoint: fake.endpoint,
      accessKeyId: 'LTAI5tContractKey',
      accessKeySecret: SECRET,
      signName: '跑腿网',
      templates: {
        verification_code: TEMPLATES.verification,
        offer: TEMPLATES.offer,
        money: TEMPLATES.money,
      },
      timeoutMs: 3000,
      ...over,
    },
    new Logger('silent'),
  );
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('Aliyun SMS gateway against the SendSms fake', () => {
  it('sends a verification code, signed as Aliyun verifies it, with the template and its one variable', async () => {
    const receipt = await gateway().send('13800138000', verificationMessage('042917', 'register', 5));
    expect(fake.accepted.at(-1)).toEqual({
      phoneNumbers: '13800138000',
      signName: '跑腿网',
      templateCode: TEMPLATES.verification,
      templateParam: { code: '042917' },
      bizId: receipt.providerMessageId,
    });
  });

  it("sends an offer with the pay in yuan and the offer's id for the link in the template", async () => {
    const message = offerMessage(`https://legwork.example.com/app/offers/${ASSIGNMENT}`, ASSIGNMENT, 4550);
    await gateway().send('13912345678', message);
    expect(fake.accepted.at(-1)).toMatchObject({
      phoneNumbers: '13912345678',
      templateCode: TEMPLATES.offer,
      templateParam: { amount: '45.50', id: ASSIGNMENT },
    });
  });

  it("sends news of a worker's money with only the assignment's id for the link in the template", async () => {
    const message = moneyMessage(`https://legwork.example.com/app/mine/${ASSIGNMENT}`, ASSIGNMENT);
    await gateway().send('13912345678', message);
    expect(fake.accepted.at(-1)).toMatchObject({
      phoneNumbers: '13912345678',
      templateCode: TEMPLATES.money,
      templateParam: { id: ASSIGNMENT },
    });
  });

  it('a request signed with another secret is refused by the fake and reported as SignatureDoesNotMatch', async () => {
    const before = fake.accepted.length;
    const err = await failure(
      gateway({ accessKeySecret: 'not-the-secret-0123456789abcdef' }).send(
        '13800138000',
        verificationMessage('111111', 'login', 5),
      ),
    );
    expect(err).toMatchObject({
      code: 'provider_error',
      status: 502,
      extra: { provider_code: 'SignatureDoesNotMatch', retry_allowed: false },
    });
    expect(fake.refusedRequests.at(-1)).toBe('SignatureDoesNotMatch');
    expect(fake.accepted).toHaveLength(before);
  });

  it('an unknown AccessKey id is refused as Aliyun does', async () => {
    const err = await failure(
      gateway({ accessKeyId: 'LTAI5tUnknown' }).send(
        '13800138000',
        verificationMessage('111111', 'login', 5),
      ),
    );
    expect(err.extra).toEqual({ provider_code: 'InvalidAccessKeyId.NotFound', retry_allowed: false });
  });

  it.each([
    ['isv.MOBILE_NUMBER_ILLEGAL', false],
    ['isv.BUSINESS_LIMIT_CONTROL', true],
    ['isp.SYSTEM_ERROR', true],
  ])('a message refused with %s (HTTP 200) is provider_error, retry_allowed %s', async (code, retry) => {
    fake.refuseNext(code);
    const err = await failure(gateway().send('13800138000', verificationMessage('222222', 'register', 5)));
    expect(err).toMatchObject({
      code: 'provider_error',
      extra: { provider_code: code, retry_allowed: retry },
    });
    expect(err.message).toContain(code);
  });

  it('a template code the account does not have is refused with the template error', async () => {
    const err = await failure(
      gateway({
        templates: { verification_code: 'SMS_999999999', offer: TEMPLATES.offer, money: TEMPLATES.money },
      }).send('13800138000', verificationMessage('333333', 'register', 5)),
    );
    expect(err.extra).toEqual({ provider_code: 'isv.SMS_TEMPLATE_ILLEGAL', retry_allowed: false });
  });

  it('an endpoint that does not answer is provider_error with retry_allowed and no provider code', async () => {
    const err = await failure(
      gateway({ endpoint: 'http://127.0.0.1:9', timeoutMs: 1000 }).send(
        '13800138000',
        verificationMessage('444444', 'register', 5),
      ),
    );
    expect(err).toMatchObject({ code: 'provider_error', extra: { retry_allowed: true } });
    expect(err.extra).not.toHaveProperty('provider_code');
  });
});
