import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { UuidParam } from '../../common/http/uuid-param';
import { RateLimitWriteRoute } from '../../common/rate-limit/rate-limit.guard';
import {
  MessageView,
  SendMessageRequest,
  WorkerMessagesResponse,
  WorkerThreadsResponse,
} from '../dtos/messages.dto';
import { MessagesService } from '../services/messages.service';

/** The worker's side of their assignment threads (worker JWT), on both prefixes like the other worker routes. */
@ApiTags('worker messages')
@Auth({ actors: ['worker'] })
@Controller(['v1/worker', 'api/v1/worker'])
export class WorkerMessagesController {
  constructor(private readonly messages: MessagesService) {}

  @Get('messages')
  @ApiOperation({
    summary: 'Your threads with what is unread in each, for badges',
    description:
      'Every assignment of yours whose thread holds a message, newest first, and the unread total.',
  })
  @ApiOkResponse({ type: WorkerThreadsResponse })
  threads(@CurrentActor() actor: WorkerActor): Promise<WorkerThreadsResponse> {
    return this.messages.workerThreads(actor);
  }

  @Get('assignments/:assignment_id/messages')
  @ApiOperation({
    summary: 'The messages between you and the agent about one assignment',
    description:
      'The latest 500, oldest first; they then count as read. Another worker’s assignment is 404 assignment_not_found.',
  })
  @ApiOkResponse({ type: WorkerMessagesResponse })
  @ApiErrors({ 400: ['validation_error'], 404: ['assignment_not_found'] })
  list(
    @CurrentActor() actor: WorkerActor,
    @UuidParam('assignment_id') assignmentId: string,
  ): Promise<WorkerMessagesResponse> {
    return this.messages.workerList(actor, assignmentId);
  }

  @Post('assignments/:assignment_id/messages')
  @RateLimitWriteRoute('message')
  @ApiOperation({
    summary: 'Ask the agent a question, or tell them something, about an assignment you accepted',
    description:
      'The agent gets it as `message.created` (webhook and socket). 2,000 characters at most; 20 messages a minute by default (429 rate_limit_exceeded beyond). Do not share your phone number or WeChat ID: operators see messages that hold them.',
  })
  @ApiCreatedResponse({ type: MessageView })
  @ApiErrors({
    400: ['validation_error'],
    404: ['assignment_not_found'],
    409: ['invalid_state'],
    429: ['rate_limit_exceeded'],
  })
  send(
    @CurrentActor() actor: WorkerActor,
    @UuidParam('assignment_id') assignmentId: string,
    @Body() dto: SendMessageRequest,
  ): Promise<MessageView> {
    return this.messages.workerSend(actor, assignmentId, dto);
  }
}
