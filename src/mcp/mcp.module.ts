import { Module } from '@nestjs/common';
import { McpController } from './mcp.controller';
import { McpEndpoint } from './mcp-endpoint';

/** The MCP server for LLM agents at /mcp (docs/mcp.md). */
@Module({
  controllers: [McpController],
  providers: [McpEndpoint],
})
export class McpModule {}
