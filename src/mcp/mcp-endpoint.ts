import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Legwork } from '@legwork/sdk';
import { createLegworkMcpServer } from '@legwork/mcp';
import { toNodeHandler, type NodeMcpRequestHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { Request, Response } from 'express';
import type { AgentActor } from '../common/actor';
import { Logger } from '../common/logging/logger';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { Drain } from '../health/drain';

/**
 * The Streamable HTTP MCP endpoint. Stateless: every POST builds a fresh server from the shared tool catalogue
 * (@legwork/mcp, the same factory the legwork-mcp stdio command serves), holding an SDK client for the caller's API
 * key, so any instance serves any call and nothing is kept between calls.
 *
 * The tools call the API over HTTP through @legwork/sdk, on this very instance (the address the request came in
 * on), rather than the services in process: that keeps one catalogue for both transports, and every tool call goes
 * through the same guard, permissions, rate limits, idempotency keys and validation as any API request
 * (docs/decisions.md, "MCP").
 */
@Injectable()
export class McpEndpoint implements OnModuleDestroy {
  private readonly handler: McpHttpHandler;
  private readonly node: NodeMcpRequestHandler;

  constructor(@Inject(APP_CONFIG) config: AppConfig, logger: Logger, drain: Drain) {
    const sandbox = config.paymentMode === 'sandbox';
    this.handler = createMcpHandler(
      ({ authInfo }) => {
        const baseUrl = authInfo?.extra?.baseUrl;
        if (!authInfo || typeof baseUrl !== 'string')
          throw new Error('MCP request without an authenticated key');
        return createLegworkMcpServer({
          client: new Legwork({ apiKey: authInfo.token, baseUrl }),
          sandbox,
          stopping: drain.signal,
        });
      },
      { onerror: (err) => logger.warn({ err }, 'mcp request refused or failed') },
    );
    this.node = toNodeHandler(this.handler);
  }

  /** Serves one MCP HTTP request for an agent the guard has authenticated by API key. */
  async handle(req: Request, res: Response, actor: AgentActor): Promise<void> {
    const token = /^Bearer\s+(\S+)$/i.exec(req.header('authorization')?.trim() ?? '')?.[1] ?? '';
    const request = req as Request & { auth?: unknown };
    request.auth = {
      token,
      clientId: actor.id,
      scopes: [...actor.permissions],
      extra: { baseUrl: loopbackOrigin(req) },
    };
    await this.node(req, res, req.body);
  }

  async onModuleDestroy(): Promise<void> {
    await this.handler.close();
  }
}

/** This instance, at the local address the request arrived on (so behind a load balancer: this instance). */
function loopbackOrigin(req: Request): string {
  const address = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  const host = address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${req.socket.localPort}`;
}
