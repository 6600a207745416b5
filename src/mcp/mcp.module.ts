import { Module } from '@nestjs/common';
import { ReadinessModule } from '../health/readiness.module';
import { McpController } from './mcp.controller';
import { McpEndpoint } from './mcp-endpoint';

/** The MCP server for LLM agents at /mcp (docs/mcp.md). */
@Module({
  imports: [ReadinessModule],
  controllers: [McpController],
  providers: [McpEndpoint],
})
export class McpModule {}
