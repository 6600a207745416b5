import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../../auth/auth.decorators';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { authorizationServerMetadata, protectedResourceMetadata } from '../oauth-metadata';

/**
 * Discovery for OAuth clients (MCP hosts): RFC 8414 at the origin, RFC 9728 at the path-inserted name of /mcp and at
 * the bare name. Documents of their RFCs, not REST operations, so they stay out of the OpenAPI document.
 */
@ApiExcludeController()
@Public()
@Controller('.well-known')
export class OAuthMetadataController {
  private readonly server: Record<string, unknown>;
  private readonly resource: Record<string, unknown>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.server = authorizationServerMetadata(config.publicBaseUrl);
    this.resource = protectedResourceMetadata(config.publicBaseUrl);
  }

  @Get('oauth-authorization-server')
  @Header('Cache-Control', 'public, max-age=3600')
  server_(): Record<string, unknown> {
    return this.server;
  }

  @Get(['oauth-protected-resource/mcp', 'oauth-protected-resource'])
  @Header('Cache-Control', 'public, max-age=3600')
  resource_(): Record<string, unknown> {
    return this.resource;
  }
}
