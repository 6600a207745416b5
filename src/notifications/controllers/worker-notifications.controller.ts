import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import {
  MarkNotificationsReadRequest,
  MarkNotificationsReadResponse,
  WorkerNotificationsQuery,
  WorkerNotificationsResponse,
} from '../dtos/worker-notification.dto';
import { WorkerNotificationsService } from '../services/worker-notifications.service';

@ApiTags('worker')
@Auth({ actors: ['worker'] })
@Controller(['v1/worker/notifications', 'api/v1/worker/notifications'])
export class WorkerNotificationsController {
  constructor(private readonly notifications: WorkerNotificationsService) {}

  @Get()
  @ApiOperation({
    summary: 'News of your money: paid, rejected with the reason, a dispute decided',
    description:
      'Each money event of yours, newest first, with how it reached you. They come through the same ladder as ' +
      'offers: your open app at once (the socket event), your subscribed devices by Web Push at once, and by SMS ' +
      '30 s later only if you turned `money_sms` on (GET /v1/worker/notification-settings) and have not read it; ' +
      'never from 22:00 to 08:00 China time (an SMS due then waits until 08:00). Only your own.',
  })
  @ApiOkResponse({ type: WorkerNotificationsResponse })
  @ApiErrors({ 400: ['validation_error'] })
  list(
    @CurrentActor() actor: WorkerActor,
    @Query() q: WorkerNotificationsQuery,
  ): Promise<WorkerNotificationsResponse> {
    return this.notifications.list(actor, q);
  }

  @Post('read')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Mark notifications read',
    description: 'Ids not yours, unknown or read already change nothing. Answers how many stay unread.',
  })
  @ApiOkResponse({ type: MarkNotificationsReadResponse })
  @ApiErrors({ 400: ['validation_error'] })
  read(
    @CurrentActor() actor: WorkerActor,
    @Body() dto: MarkNotificationsReadRequest,
  ): Promise<MarkNotificationsReadResponse> {
    return this.notifications.markRead(actor, dto);
  }
}
