import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { AgentActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import {
  CallbackSecretResponse,
  CreatedWebhookResponse,
  CreateWebhookRequest,
  DeliveryListResponse,
  ListDeliveriesQuery,
  WebhookListResponse,
  WebhookTestResponse,
} from '../dtos/webhook.dto';
import { SigningSecretsService } from '../webhooks/signing-secrets.service';
import { WebhookEndpointsService } from '../webhooks/webhook-endpoints.service';
import { UuidParam } from '../../common/http/uuid-param';

/**
 * Webhook endpoint management: the agent's console session (JWT), or an API key holding `webhook:manage`, so a
 * backend can register and rotate its own receivers without the account password.
 */
@ApiTags('webhooks')
@Auth({ actors: ['agent'], permission: 'webhook:manage' })
@Controller(['v1/agent/webhooks', 'api/v1/agent/webhooks'])
export class WebhooksController {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly secrets: SigningSecretsService,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Register a webhook endpoint; the signing secret is shown once',
    description:
      'The URL must be https in live mode and resolve only to public addresses (checked now and at every connection). `events` is a list of names or `["*"]`. The `secret` that signs deliveries (Legwork-Signature and X-Signature) is answered only here. At most 10 endpoints. Needs the JWT or an API key with `webhook:manage`.',
  })
  @ApiCreatedResponse({ type: CreatedWebhookResponse })
  @ApiErrors({ 400: ['validation_error'], 409: ['conflict'] })
  create(
    @CurrentActor() actor: AgentActor,
    @Body() dto: CreateWebhookRequest,
  ): Promise<CreatedWebhookResponse> {
    return this.endpoints.create(actor, dto);
  }

  @Get()
  @ApiOperation({
    summary: 'Your webhook endpoints (without secrets)',
    description:
      'Every endpoint with its subscribed events and health: `status` (active or disabled), `failing_since`, `last_success_at`, `disabled_at`. Secrets are never shown again.',
  })
  @ApiOkResponse({ type: WebhookListResponse })
  list(@CurrentActor() actor: AgentActor): Promise<WebhookListResponse> {
    return this.endpoints.list(actor);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete an endpoint; its pending deliveries are cancelled',
    description:
      'Deliveries still pending for the endpoint are cancelled; events already delivered are not affected. 204 with no body.',
  })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiErrors({ 404: ['not_found'] })
  remove(@CurrentActor() actor: AgentActor, @UuidParam('id') id: string): Promise<void> {
    return this.endpoints.remove(actor, id);
  }

  @Post(':id/test')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a signed webhook.test event now and report the answer (no retries)',
    description:
      'Sends a signed `webhook.test` event (see WebhookTestEvent) to the endpoint now, once, and reports what it answered. It appears in the delivery log but is never retried.',
  })
  @ApiOkResponse({ type: WebhookTestResponse })
  @ApiErrors({ 404: ['not_found'] })
  test(@CurrentActor() actor: AgentActor, @UuidParam('id') id: string): Promise<WebhookTestResponse> {
    return this.endpoints.test(actor, id);
  }

  @Get(':id/deliveries')
  @ApiOperation({
    summary: 'Delivery log of an endpoint, newest first: attempts, status codes, latency, next retry',
    description:
      'Newest first, with each attempt: status code, latency, error and `next_retry_at`. Filter by `status`, page with `starting_after`.',
  })
  @ApiOkResponse({ type: DeliveryListResponse })
  @ApiErrors({ 404: ['not_found'] })
  deliveries(
    @CurrentActor() actor: AgentActor,
    @UuidParam('id') id: string,
    @Query() q: ListDeliveriesQuery,
  ): Promise<DeliveryListResponse> {
    return this.endpoints.deliveries(actor, id, q);
  }

  @Post('callback-secret')
  @ApiOperation({
    summary: "Rotate the secret that signs deliveries to your payment orders' callback_url; shown once",
    description:
      'Payment orders created with a `callback_url` get their payment and refund events there, signed with this per-agent secret. Rotating answers the new secret once; the old one stops signing at once.',
  })
  @ApiCreatedResponse({ type: CallbackSecretResponse })
  rotateCallbackSecret(@CurrentActor() actor: AgentActor): Promise<CallbackSecretResponse> {
    return this.secrets.rotateCallbackSecret(actor.id);
  }
}
