import { Module } from '@nestjs/common';
import { EventsModule } from '../events.module';
import { EventReplay } from './event-replay';
import { EventsGateway } from './events.gateway';
import { HandshakeLimit } from './handshake-limit';
import { TaskWatch } from './task-watch';

/**
 * The socket.io endpoint (/ws), apart from EventsModule so that only the API process loads it: it authenticates
 * connections with AuthModule's Authenticator, which the job runner (no HTTP, no sockets) does not load. The
 * runner still publishes to sockets through EventsModule's SocketFanout and the Redis bus.
 */
@Module({
  imports: [EventsModule],
  providers: [EventsGateway, HandshakeLimit, TaskWatch, EventReplay],
})
export class EventsGatewayModule {}
