import { Module } from '@nestjs/common';
import { SecretBox } from '../common/secret-box';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { AgentEventsController } from './controllers/agent-events.controller';
import { WebhooksController } from './controllers/webhooks.controller';
import { WsStatsController } from './controllers/ws-stats.controller';
import { WebhookDelivery } from './delivery/webhook-delivery';
import { EventsRunner } from './delivery/events-runner';
import { OutboxPublisher } from './delivery/outbox-publisher';
import { OutboxSubscribers } from './delivery/outbox-subscribers';
import { WebhookSender } from './delivery/webhook-sender';
import { RedisBus } from './gateway/redis-bus';
import { SocketFanout } from './gateway/socket-fanout';
import { SocketDeliveries } from './gateway/socket-deliveries';
import { WsStats } from './gateway/ws-stats';
import { HOST_RESOLVER, systemResolver, UrlSafety } from './url-safety/url-safety';
import { AgentEventsService } from './webhooks/agent-events.service';
import { SIGNING_SECRETS_PURPOSE } from './webhooks/signing-secret';
import { SigningSecretsService } from './webhooks/signing-secrets.service';
import { WebhookEndpointsService } from './webhooks/webhook-endpoints.service';

/**
 * Events leave the service through here: the outbox publisher, signed webhook deliveries with retries, and the
 * cross-instance fan-out to sockets (the socket.io gateway itself is EventsGatewayModule, loaded by the API only).
 * Other modules only write outbox rows in their own transactions; UrlSafety is exported so the payment module can
 * check an order's callback_url when the order is created, RedisBus so the readiness check can ping Redis on a
 * connection that already exists, OutboxSubscribers so a module above can react to published events, WebhookSender
 * so Web Push requests leave through the same checked connections as webhooks.
 */
@Module({
  controllers: [WebhooksController, AgentEventsController, WsStatsController],
  providers: [
    { provide: HOST_RESOLVER, useValue: systemResolver },
    {
      provide: SecretBox,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new SecretBox(config.webhooks.secretKey, SIGNING_SECRETS_PURPOSE),
    },
    UrlSafety,
    SigningSecretsService,
    WebhookSender,
    WebhookEndpointsService,
    AgentEventsService,
    WebhookDelivery,
    OutboxSubscribers,
    OutboxPublisher,
    EventsRunner,
    RedisBus,
    SocketFanout,
    SocketDeliveries,
    WsStats,
  ],
  exports: [
    UrlSafety,
    WebhookSender,
    OutboxSubscribers,
    OutboxPublisher,
    WebhookDelivery,
    EventsRunner,
    SocketFanout,
    WsStats,
    RedisBus,
  ],
})
export class EventsModule {}
