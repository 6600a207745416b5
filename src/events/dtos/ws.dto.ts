import { ApiProperty } from '@nestjs/swagger';

export class ConnectionsByKind {
  @ApiProperty() agent: number;
  @ApiProperty() worker: number;
  @ApiProperty() admin: number;
}

export class InstanceConnections {
  @ApiProperty({ example: 'api-1:4312' }) instance_id: string;
  @ApiProperty() connections: number;
  @ApiProperty({ type: ConnectionsByKind }) by_kind: ConnectionsByKind;
  @ApiProperty({ type: String, format: 'date-time', description: 'When the instance last reported.' })
  updated_at: string;
}

export class WsStatsResponse {
  @ApiProperty({ description: 'The instance that answered.' }) instance_id: string;
  @ApiProperty({
    enum: ['cluster', 'instance'],
    description:
      'cluster: every instance sharing the Redis (REDIS_URL); instance: this process only (no REDIS_URL, or Redis unreachable).',
  })
  scope: 'cluster' | 'instance';
  @ApiProperty() total_connections: number;
  @ApiProperty({ type: ConnectionsByKind }) by_kind: ConnectionsByKind;
  @ApiProperty({ type: [InstanceConnections] }) instances: InstanceConnections[];
}
