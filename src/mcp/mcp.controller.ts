import { Controller, Delete, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AgentActor } from '../common/actor';
import { Auth, CurrentActor } from '../auth/auth.decorators';
import { McpChallengeFilter } from './mcp-challenge.filter';
import { McpEndpoint } from './mcp-endpoint';

/**
 * /mcp: the Model Context Protocol over Streamable HTTP (docs/mcp.md). Not a REST operation, so it is kept out of
 * the OpenAPI document; the guard still applies (an agent API key, as for the API, or an OAuth access token for
 * `<origin>/mcp`), and a 401 carries the bearer challenge naming the protected-resource metadata. The MCP SDK answers the protocol, including 405 for the GET and DELETE a stateless server does not
 * serve.
 */
@ApiExcludeController()
@Controller('mcp')
@Auth({ actors: ['agent'], schemes: ['api_key', 'oauth'] })
@UseFilters(McpChallengeFilter)
export class McpController {
  constructor(private readonly endpoint: McpEndpoint) {}

  @Post()
  post(@CurrentActor() actor: AgentActor, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.endpoint.handle(req, res, actor);
  }

  @Get()
  get(@CurrentActor() actor: AgentActor, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.endpoint.handle(req, res, actor);
  }

  @Delete()
  delete(@CurrentActor() actor: AgentActor, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.endpoint.handle(req, res, actor);
  }
}
