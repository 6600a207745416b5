import Dysmsapi, { SendSmsRequest } from '@alicloud/dysmsapi20170525';
import { $OpenApiUtil } from '@alicloud/openapi-core';
import { ApiError } from '../common/errors/api-error';
import type { Logger } from '../common/logging/logger';
import type { AliyunSmsSettings, SmsTemplate } from '../config/notification-config';
import type { SmsGateway, SmsReceipt } from './sms-gateway';
import { maskPhone, type SmsMessage, type SmsMessages } from './sms-message';

/**
 * The template parameters each approved Aliyun template takes (TemplateParam, a JSON object of strings). The
 * templates are registered in the Aliyun console with exactly these variables:
 * - verification_code: `${code}`, e.g. 您的验证码为${code}，5分钟内有效，请勿泄露。
 * - offer: `${amount}` and `${id}`, the link's path written in the template itself (carriers refuse links in
 *   variables), e.g. 有新任务邀请，报酬${amount}元，请尽快查看：https://legwork.example.com/app/offers/${id}
 * - money: `${id}`, the same way, e.g. 你的任务款项有新消息，请查看：https://legwork.example.com/app/mine/${id}
 */
const TEMPLATE_PARAMS: { [T in SmsTemplate]: (p: SmsMessages[T]) => Record<string, string> } = {
  verification_code: (p) => ({ code: p.code }),
  offer: (p) => ({ amount: p.amount, id: p.offer_id }),
  money: (p) => ({ id: p.assignment_id }),
};

/** Refusals after which the same message may go through later (flow control, Aliyun's own trouble). */
const TRANSIENT_CODES =
  /^(isv\.BUSINESS_LIMIT_CONTROL|isv\.DAY_LIMIT_CONTROL|isp\.|Throttling|ServiceUnavailable|InternalError)/;

/**
 * Aliyun SMS (短信服务, API version 2017-05-25) through its official SDK, which signs every request (ACS3-HMAC-SHA256)
 * with the AccessKey pair. One attempt per message (the client is built without retryOptions, so the SDK makes one):
 * SendSms is not idempotent (a retried request may send the SMS twice), so a failure is reported, never retried. Aliyun answers a refused message with HTTP 200 and a `Code`
 * other than `OK`, and a refused request (signature, key, throttling) with an HTTP error the SDK throws; both become
 * provider_error carrying Aliyun's code, retry_allowed saying whether trying later can help.
 */
export class AliyunSmsGateway implements SmsGateway {
  readonly name = 'aliyun';
  private readonly client: Dysmsapi;

  constructor(
    private readonly settings: AliyunSmsSettings,
    private readonly logger: Logger,
  ) {
    const endpoint = new URL(settings.endpoint);
    this.client = new Dysmsapi(
      new $OpenApiUtil.Config({
        accessKeyId: settings.accessKeyId,
        accessKeySecret: settings.accessKeySecret,
        endpoint: endpoint.host,
        protocol: endpoint.protocol.replace(':', ''),
        connectTimeout: settings.timeoutMs,
        readTimeout: settings.timeoutMs,
      }),
    );
  }

  async send(phone: string, message: SmsMessage): Promise<SmsReceipt> {
    const request = new SendSmsRequest({
      phoneNumbers: phone,
      signName: this.settings.signName,
      templateCode: this.settings.templates[message.template],
      templateParam: JSON.stringify(templateParams(message)),
    });
    let body: { code?: string; bizId?: string; requestId?: string } | undefined;
    try {
      body = (await this.client.sendSms(request)).body;
    } catch (err) {
      const e = err as { code?: string; statusCode?: number; requestId?: string };
      // An HTTP answer from Aliyun (the SDK's AlibabaCloudError) carries its code; anything else never reached it.
      if (typeof e.statusCode === 'number' && e.code)
        throw this.refused(e.code, e.requestId, phone, message.template);
      throw this.unreachable(e.code, phone, message.template);
    }
    if (body?.code !== 'OK')
      throw this.refused(body?.code ?? 'unknown', body?.requestId, phone, message.template);
    return { providerMessageId: body.bizId ?? null };
  }

  private refused(
    code: string,
    requestId: string | undefined,
    phone: string,
    template: SmsTemplate,
  ): ApiError {
    this.logger.warn(
      { sms_to: maskPhone(phone), sms_template: template, provider_code: code, request_id: requestId },
      'Aliyun SMS refused the message',
    );
    return new ApiError('provider_error', `The SMS provider refused the message (${code}).`, {
      provider_code: code,
      retry_allowed: TRANSIENT_CODES.test(code),
    });
  }

  /** The error's own message names the request URL, phone number included: only its code is logged. */
  private unreachable(code: string | undefined, phone: string, template: SmsTemplate): ApiError {
    this.logger.warn(
      { sms_to: maskPhone(phone), sms_template: template, error_code: code ?? null },
      'Aliyun SMS could not be reached',
    );
    return new ApiError('provider_error', 'The SMS provider could not be reached; try again shortly.', {
      retry_allowed: true,
    });
  }
}

function templateParams(message: SmsMessage): Record<string, string> {
  switch (message.template) {
    case 'verification_code':
      return TEMPLATE_PARAMS.verification_code(message.params);
    case 'offer':
      return TEMPLATE_PARAMS.offer(message.params);
    case 'money':
      return TEMPLATE_PARAMS.money(message.params);
  }
}
