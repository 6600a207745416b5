import { Controller, Post, Req, Res } from '@nestjs/common';
import { ApiConsumes, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators';
import type { NotificationAck, ProviderName } from '../providers/provider.types';
import { NotificationService } from '../services/notification.service';

/**
 * Provider notifications. Public: they are authenticated by the provider's signature over the raw body (kept by
 * the body parsers as req.rawBody), never by a bearer credential. Answers are the providers' own: Alipay plain
 * `success`/`failure`, WeChat Pay JSON `{code, message}`.
 */
@ApiTags('provider callbacks')
@Controller()
export class ProviderCallbacksController {
  constructor(private readonly notifications: NotificationService) {}

  @Post('v1/payment/alipay/callback')
  @Public()
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiOperation({
    summary: 'Alipay asynchronous notification (RSA2-signed form post)',
    description:
      'The same Alipay notification handler as /webhooks/alipay, on the spec’s machine-readable path.',
  })
  @ApiOkResponse({ description: 'text/plain `success`, or `failure` (Alipay delivers again)' })
  async alipayCallback(@Req() req: Request, @Res() res: Response): Promise<void> {
    send(res, await this.receive('alipay', req));
  }

  /** The same notification on the webhook paths (Legwork's notify_url is /webhooks/alipay). */
  @Post(['api/webhooks/alipay', 'webhooks/alipay'])
  @Public()
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiOperation({
    summary: 'Alipay asynchronous notification (RSA2-signed form post)',
    description:
      'Called by Alipay, never by clients. The RSA2 signature, app id and amount are verified before the order changes; answers plain text `success` (Alipay stops retrying) or `failure`.',
  })
  @ApiOkResponse({ description: 'text/plain `success`, or `failure` (Alipay delivers again)' })
  async alipay(@Req() req: Request, @Res() res: Response): Promise<void> {
    send(res, await this.receive('alipay', req));
  }

  @Post(['api/webhooks/wechat', 'webhooks/wechat'])
  @Public()
  @ApiOperation({
    summary: 'WeChat Pay APIv3 notification (signed, AES-256-GCM encrypted resource)',
    description:
      'Called by WeChat Pay, never by clients. The platform signature is verified and the resource decrypted (AES-256-GCM) before the order changes; answers `{code: SUCCESS}` or `{code: FAIL, message}` with an error status so WeChat Pay retries.',
  })
  @ApiOkResponse({ description: '{"code":"SUCCESS"}: the notification was taken.' })
  @ApiResponse({
    status: 400,
    description: '{"code":"FAIL","message"}: the notification was refused (WeChat Pay delivers it again).',
  })
  @ApiResponse({
    status: 401,
    description: '{"code":"FAIL","message"}: the signature or its timestamp did not verify.',
  })
  async wechat(@Req() req: Request, @Res() res: Response): Promise<void> {
    send(res, await this.receive('wechat', req));
  }

  private receive(provider: ProviderName, req: Request): Promise<NotificationAck> {
    return this.notifications.handle(provider, {
      rawBody: req.rawBody ?? Buffer.alloc(0),
      headers: req.headers,
    });
  }
}

function send(res: Response, ack: NotificationAck): void {
  res.status(ack.status).type(ack.contentType).send(ack.body);
}
