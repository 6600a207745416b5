import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import {
  NotificationSettingsResponse,
  UpdateNotificationSettingsRequest,
} from '../dtos/notification-settings.dto';
import { NotificationSettingsService } from '../services/notification-settings.service';

@ApiTags('worker')
@Auth({ actors: ['worker'] })
@Controller(['v1/worker/notification-settings', 'api/v1/worker/notification-settings'])
export class NotificationSettingsController {
  constructor(private readonly settings: NotificationSettingsService) {}

  @Get()
  @ApiOperation({
    summary:
      'How offers and news of your money reach you when the app is closed: SMS on or off, and Web Push',
    description:
      'Offers reach an open app at once (socket.io), subscribed devices by Web Push at once, and by SMS when still ' +
      'unanswered after 30 s, unless `offer_sms` is false. `push.vapid_public_key` is what the browser subscribes with.',
  })
  @ApiOkResponse({ type: NotificationSettingsResponse })
  get(@CurrentActor() actor: WorkerActor): Promise<NotificationSettingsResponse> {
    return this.settings.get(actor);
  }

  @Put()
  @ApiOperation({
    summary: 'Turn offer SMS and money SMS on or off',
    description:
      'Give `offer_sms`, `money_sms` or both; an absent one stays as it is. Verification codes are not affected: they always come by SMS.',
  })
  @ApiOkResponse({ type: NotificationSettingsResponse })
  @ApiErrors({ 400: ['validation_error'] })
  update(
    @CurrentActor() actor: WorkerActor,
    @Body() dto: UpdateNotificationSettingsRequest,
  ): Promise<NotificationSettingsResponse> {
    return this.settings.update(actor, dto);
  }
}
