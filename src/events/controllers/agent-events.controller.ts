import { Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AgentActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { EventListResponse, ListEventsQuery, RedeliveryResponse } from '../dtos/event.dto';
import { AgentEventsService } from '../webhooks/agent-events.service';
import { UuidParam } from '../../common/http/uuid-param';

@ApiTags('webhooks')
@Controller(['v1/agent/events', 'api/v1/agent/events'])
export class AgentEventsController {
  constructor(private readonly events: AgentEventsService) {}

  /** Readable with an API key too: reconciling missed webhooks is a backend's job. */
  @Get()
  @Auth({ actors: ['agent'], permission: 'task:read' })
  @ApiOperation({
    summary: 'Your events of the last 30 days, newest first (cursor paging), to reconcile webhooks',
    description:
      'The same payloads webhooks deliver (typed per event name, see WebhookEvent), kept 30 days, newest first. Filter by `type`; page with `starting_after` and `next_cursor`. Use it to catch up after downtime: de-duplicate by `event_id`. ' +
      'Needs `task:read`. Payment and refund events are listed only for an API key that also has `payment:read` ' +
      '(a session token reads all); asking for one by `type` without it is 403 `insufficient_permissions`.',
  })
  @ApiOkResponse({ type: EventListResponse })
  @ApiErrors({ 400: ['validation_error'] })
  list(@CurrentActor() actor: AgentActor, @Query() q: ListEventsQuery): Promise<EventListResponse> {
    return this.events.list(actor, q);
  }

  @Post(':event_id/redeliver')
  @HttpCode(202)
  @Auth({ actors: ['agent'], permission: 'webhook:manage' })
  @ApiOperation({
    summary: 'Queue the event again for every active endpoint subscribed to it',
    description:
      'The same event (same `event_id`, same bytes) is queued for every active endpoint subscribed to it, with a fresh retry schedule. Needs the JWT or an API key with `webhook:manage`.',
  })
  @ApiAcceptedResponse({ type: RedeliveryResponse })
  @ApiErrors({ 404: ['not_found'] })
  redeliver(
    @CurrentActor() actor: AgentActor,
    @UuidParam('event_id') eventId: string,
  ): Promise<RedeliveryResponse> {
    return this.events.redeliver(actor, eventId);
  }
}
