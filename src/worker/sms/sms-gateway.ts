import { ApiError } from '../../common/errors/api-error';
import type { Logger } from '../../common/logging/logger';

/** Injection token of the active SmsGateway. */
export const SMS_GATEWAY = Symbol('SMS_GATEWAY');

/**
 * One verification message. Mainland SMS providers send registered templates with parameters rather than free
 * text, so a gateway gets both: `template` and `params` for template-based providers, `text` for the others.
 */
export interface SmsMessage {
  template: 'verification_code';
  params: { code: string; purpose: string; ttl_minutes: number };
  text: string;
}

/**
 * Where SMS go. A real provider implements this interface and is chosen in WorkerModule's gateway factory.
 * `send` resolves once the provider accepted the message; failures throw ApiError (service_unavailable or
 * provider_error) so the caller can answer the client and release the unsent code.
 */
export interface SmsGateway {
  readonly name: string;
  send(phone: string, message: SmsMessage): Promise<void>;
}

/** Sandbox mode: nothing leaves the machine; the message (with its code) goes to the structured log. */
export class SandboxSmsGateway implements SmsGateway {
  readonly name = 'sandbox';

  constructor(private readonly logger: Logger) {}

  async send(phone: string, message: SmsMessage): Promise<void> {
    this.logger.info(
      { sms_to: phone, sms_template: message.template, sms_params: message.params },
      'sandbox SMS (not sent)',
    );
  }
}

/**
 * Live mode without an SMS provider. The API still boots (agents, payments and logged-in workers keep working),
 * but every send answers 503 service_unavailable, so no code is ever shown or logged in live mode.
 */
export class UnconfiguredSmsGateway implements SmsGateway {
  readonly name = 'unconfigured';

  async send(): Promise<void> {
    throw new ApiError(
      'service_unavailable',
      'SMS delivery is not configured on this server; verification codes cannot be sent.',
      { retry_after: 300 },
      { 'Retry-After': '300' },
    );
  }
}
