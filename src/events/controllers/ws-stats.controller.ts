import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../auth/auth.decorators';
import { WsStatsResponse } from '../dtos/ws.dto';
import { WsStats } from '../gateway/ws-stats';

@ApiTags('system')
@Controller('v1/ws')
export class WsStatsController {
  constructor(private readonly stats: WsStats) {}

  @Get('stats')
  @Public()
  @ApiOperation({
    summary: 'WebSocket connections by kind and instance (public)',
    description:
      'Public. Open socket.io connections on /ws by credential kind, per instance and in total. The socket protocol ' +
      '(handshake, rooms, acks) and its limits (20 messages a second per socket, 200 task rooms, 20 open sockets ' +
      'per account and instance, handshakes per client IP) are in ' +
      '[webhooks and events](../docs/webhooks.md#socket-limits).',
  })
  @ApiOkResponse({ type: WsStatsResponse })
  get(): Promise<WsStatsResponse> {
    return this.stats.snapshot();
  }
}
