import { Body, Controller, Delete, HttpCode, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import {
  DeletePushSubscriptionQuery,
  PushSubscriptionResponse,
  RegisterPushSubscriptionRequest,
} from '../dtos/push-subscription.dto';
import { PushSubscriptionsService } from '../services/push-subscriptions.service';

@ApiTags('worker')
@Auth({ actors: ['worker'] })
@Controller(['v1/worker/push-subscriptions', 'api/v1/worker/push-subscriptions'])
export class PushSubscriptionsController {
  constructor(private readonly subscriptions: PushSubscriptionsService) {}

  @Post()
  @ApiOperation({
    summary: "Receive offers by Web Push on this device: register the browser's PushSubscription",
    description:
      'Send `JSON.stringify(subscription)` from `pushManager.subscribe({userVisibleOnly: true, applicationServerKey})`, ' +
      'the key being `push.vapid_public_key` of GET /v1/worker/notification-settings. Each offer made to you is then ' +
      'pushed to the device, encrypted to its keys (RFC 8291), with the task title, pay, expiry and the link ' +
      "`/app/offers/{assignment_id}`; so is news of your money (`type: money`, words in the device's `locale`, the " +
      'link `/app/mine/{assignment_id}`; GET /v1/worker/notifications). Registering an endpoint again updates it (and moves it to you if another ' +
      'worker had it). At most 10 devices; an 11th replaces the longest unchanged. A push service that answers the ' +
      'subscription is gone (404 or 410) removes it.',
  })
  @ApiCreatedResponse({ type: PushSubscriptionResponse })
  @ApiErrors({ 400: ['validation_error'] })
  register(
    @CurrentActor() actor: WorkerActor,
    @Body() dto: RegisterPushSubscriptionRequest,
  ): Promise<PushSubscriptionResponse> {
    return this.subscriptions.register(actor, dto);
  }

  @Delete()
  @HttpCode(204)
  @ApiOperation({
    summary: 'Stop receiving offers by Web Push on a device',
    description:
      'Removes your subscription with this endpoint (the app does it on sign-out). 204 with no body.',
  })
  @ApiNoContentResponse({ description: 'Removed.' })
  @ApiErrors({ 400: ['validation_error'], 404: ['not_found'] })
  remove(@CurrentActor() actor: WorkerActor, @Query() q: DeletePushSubscriptionQuery): Promise<void> {
    return this.subscriptions.remove(actor, q.endpoint);
  }
}
