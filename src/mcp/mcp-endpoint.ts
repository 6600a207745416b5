import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { NodeMcpRequestHandler } from '@modelcontextprotocol/node';
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import type { Request, Response } from 'express';
import type { AgentActor } from '../common/actor';
import { GrantTokens, isGrantActor } from '../auth/grant-tokens';
import { Logger } from '../common/logging/logger';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { Drain } from '../health/drain';
import { s3Origins } from '../upload/storage/s3-origins';

/**
 * The Streamable HTTP MCP endpoint. Stateless: every POST builds a fresh server from the shared tool catalogue
 * (@legwork/mcp, the same factory the legwork-mcp stdio command serves), holding an SDK client for the caller's API
 * key, so any instance serves any call and nothing is kept between calls.
 *
 * The tools call the API over HTTP through @legwork/sdk, on this very instance (the address the request came in
 * on), rather than the services in process: that keeps one catalogue for both transports, and every tool call goes
 * through the same guard, permissions, rate limits, idempotency keys and validation as any API request
 * (docs/decisions.md, "MCP").
 *
 * The MCP and SDK packages (about 14 MiB of memory once loaded) are loaded by the first MCP request, not at start:
 * most instances never serve one.
 */
@Injectable()
export class McpEndpoint implements OnModuleDestroy {
  private loaded?: { handler: McpHttpHandler; node: NodeMcpRequestHandler };

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly logger: Logger,
    private readonly drain: Drain,
    private readonly grantTokens: GrantTokens,
  ) {}

  private load(): { handler: McpHttpHandler; node: NodeMcpRequestHandler } {
    if (this.loaded) return this.loaded;
    // require, not import(): import() would load the packages' ESM builds, other classes than the CommonJS ones
    // @legwork/mcp uses, and jest runs the e2e suite as CommonJS without VM modules (stats-export.service.ts).
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { Legwork } = require('@legwork/sdk') as typeof import('@legwork/sdk');
    const { createLegworkMcpServer } = require('@legwork/mcp') as typeof import('@legwork/mcp');
    const { toNodeHandler } =
      require('@modelcontextprotocol/node') as typeof import('@modelcontextprotocol/node');
    const { createMcpHandler } =
      require('@modelcontextprotocol/server') as typeof import('@modelcontextprotocol/server');
    /* eslint-enable @typescript-eslint/no-require-imports */
    const sandbox = this.config.paymentMode === 'sandbox';
    // The review card shows proof photos: /uploads on the public origin, redirected to the bucket with S3.
    const storage = this.config.storage;
    const photoOrigins = [
      new URL(this.config.publicBaseUrl).origin,
      ...(storage.driver === 's3' ? s3Origins(storage) : []),
    ];
    const handler = createMcpHandler(
      ({ authInfo }) => {
        const baseUrl = authInfo?.extra?.baseUrl;
        if (!authInfo || typeof baseUrl !== 'string')
          throw new Error('MCP request without an authenticated key');
        return createLegworkMcpServer({
          client: new Legwork({ apiKey: authInfo.token, baseUrl }),
          sandbox,
          stopping: this.drain.signal,
          photoOrigins,
        });
      },
      { onerror: (err) => this.logger.warn({ err }, 'mcp request refused or failed') },
    );
    this.loaded = { handler, node: toNodeHandler(handler) };
    return this.loaded;
  }

  /**
   * Serves one MCP HTTP request for an agent the guard has authenticated by API key or OAuth access token. With an
   * OAuth token the tools call the API with an internal agent token minted for this request (the grant's
   * permissions and grant_id, minutes of life, checked against the grant on every call), never the OAuth token
   * itself: no token pass-through (MCP authorization spec), and the OAuth token is never accepted by the API.
   */
  async handle(req: Request, res: Response, actor: AgentActor): Promise<void> {
    const token =
      actor.scheme === 'oauth' && isGrantActor(actor)
        ? await this.grantTokens.signAgentToken(actor)
        : (/^Bearer\s+(\S+)$/i.exec(req.header('authorization')?.trim() ?? '')?.[1] ?? '');
    const request = req as Request & { auth?: unknown };
    request.auth = {
      token,
      clientId: actor.grantId ?? actor.id,
      scopes: [...actor.permissions],
      extra: { baseUrl: loopbackOrigin(req) },
    };
    await this.load().node(req, res, req.body);
  }

  async onModuleDestroy(): Promise<void> {
    await this.loaded?.handler.close();
  }
}

/** This instance, at the local address the request arrived on (so behind a load balancer: this instance). */
function loopbackOrigin(req: Request): string {
  const address = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  const host = address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${req.socket.localPort}`;
}
