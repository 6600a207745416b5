import { Controller, Get, HttpCode, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators';
import { RateLimitByIp } from '../../common/rate-limit/rate-limit.guard';
import { OAuthError, OAuthErrorFilter } from '../oauth-error';
import { Authorizations } from '../services/authorizations.service';
import {
  type ClientCredentials,
  OAuthClients,
  type RegisteredClient,
} from '../services/oauth-clients.service';
import { OAuthTokens, type TokenResponse } from '../services/oauth-tokens.service';

/**
 * The authorization server's protocol endpoints (RFC 6749 with OAuth 2.1's rules, RFC 7591, RFC 7009), public and
 * answering the RFCs' error bodies. Registration, token and revocation are limited per client IP like the other
 * public sign-in routes. Form-encoded and specified by their RFCs, they are documented in docs/mcp.md rather than
 * in the OpenAPI document.
 */
@ApiExcludeController()
@Public()
@Controller('oauth')
@UseFilters(OAuthErrorFilter)
export class OAuthProtocolController {
  constructor(
    private readonly authorizations: Authorizations,
    private readonly clients: OAuthClients,
    private readonly tokens: OAuthTokens,
  ) {}

  @Get('authorize')
  async authorize(@Req() req: Request, @Res() res: Response): Promise<void> {
    const { location } = await this.authorizations.authorize(req.query);
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(302, location);
  }

  @Post('token')
  @HttpCode(200)
  @RateLimitByIp()
  token(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<TokenResponse> {
    res.setHeader('Cache-Control', 'no-store');
    return this.tokens.token(formBody(req), clientCredentials(req));
  }

  @Post('register')
  @HttpCode(201)
  @RateLimitByIp()
  register(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<RegisteredClient> {
    res.setHeader('Cache-Control', 'no-store');
    const body: unknown = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body) || !req.is('application/json')) {
      throw new OAuthError('invalid_client_metadata', 'send the client metadata as a JSON object');
    }
    return this.clients.register(body as Record<string, unknown>);
  }

  @Post('revoke')
  @HttpCode(200)
  @RateLimitByIp()
  async revoke(@Req() req: Request): Promise<Record<string, never>> {
    await this.tokens.revoke(formBody(req), clientCredentials(req));
    return {};
  }
}

/** RFC 6749 §3.2: token requests are application/x-www-form-urlencoded. */
function formBody(req: Request): Record<string, unknown> {
  if (!req.is('application/x-www-form-urlencoded')) {
    throw new OAuthError('invalid_request', 'send the parameters as application/x-www-form-urlencoded');
  }
  return (req.body ?? {}) as Record<string, unknown>;
}

/** RFC 6749 §2.3.1: HTTP Basic (form-encoded id and secret) or the body's client_id and client_secret, not both. */
function clientCredentials(req: Request): ClientCredentials {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const basic = /^Basic\s+(\S+)$/i.exec(req.header('authorization') ?? '')?.[1];
  if (basic) {
    if (body.client_secret !== undefined)
      throw new OAuthError('invalid_request', 'use one client authentication method');
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new OAuthError('invalid_client', 'malformed Basic credentials', 401);
    const id = formDecode(decoded.slice(0, colon));
    if (body.client_id !== undefined && body.client_id !== id) {
      throw new OAuthError('invalid_request', 'client_id differs from the Basic credentials');
    }
    return { clientId: id, secret: formDecode(decoded.slice(colon + 1)), via: 'client_secret_basic' };
  }
  const id = typeof body.client_id === 'string' ? body.client_id : null;
  const secret = typeof body.client_secret === 'string' ? body.client_secret : null;
  return { clientId: id, secret, via: secret === null ? 'none' : 'client_secret_post' };
}

function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    throw new OAuthError('invalid_client', 'malformed Basic credentials', 401);
  }
}
