import { ApiError } from '../common/errors/api-error';
import type { SmsMessage } from './sms-message';

/** Injection token of the active SmsGateway. */
export const SMS_GATEWAY = Symbol('SMS_GATEWAY');

/** What a provider said when it took a message: its own id of it, when it has one. */
export interface SmsReceipt {
  providerMessageId: string | null;
}

/**
 * Where SMS go: the sandbox outbox, Aliyun SMS, or nowhere (live mode without a provider). `send` resolves once
 * the provider accepted the message; a failure throws ApiError (service_unavailable, or provider_error with the
 * provider's code) so a code request can answer its client and release the unsent code, and an offer SMS can
 * record why it did not go.
 */
export interface SmsGateway {
  readonly name: string;
  send(phone: string, message: SmsMessage): Promise<SmsReceipt>;
}

/**
 * Live mode with SMS_PROVIDER=none. The API still boots (agents, payments and signed-in workers keep working), but
 * every send answers 503 service_unavailable, so no code is ever shown or logged in live mode.
 */
export class UnconfiguredSmsGateway implements SmsGateway {
  readonly name = 'none';

  async send(): Promise<SmsReceipt> {
    throw new ApiError(
      'service_unavailable',
      'SMS delivery is not configured on this server; verification codes cannot be sent.',
      { retry_after: 300 },
      { 'Retry-After': '300' },
    );
  }
}
