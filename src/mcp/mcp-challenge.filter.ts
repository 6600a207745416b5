import { ArgumentsHost, Catch, Inject } from '@nestjs/common';
import type { Response } from 'express';
import { AllExceptionsFilter } from '../common/errors/all-exceptions.filter';
import { ApiError } from '../common/errors/api-error';
import { Logger } from '../common/logging/logger';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';

/** The realm the /mcp challenge names. */
export const MCP_REALM = 'legwork-mcp';

/**
 * The /mcp endpoint's errors: the service's envelope, plus the bearer challenge (RFC 6750 §3) on a 401, which MCP
 * clients read to learn that the endpoint wants `Authorization: Bearer <API key or OAuth access token>`. It names
 * the protected-resource metadata (RFC 9728 §5.1), where an OAuth client discovers the authorization server. Without
 * a credential the challenge names the realm and the metadata; with a wrong one it adds `error="invalid_token"`.
 */
@Catch()
export class McpChallengeFilter extends AllExceptionsFilter {
  private readonly resourceMetadata: string;

  constructor(@Inject(Logger) logger: Logger, @Inject(APP_CONFIG) config: AppConfig) {
    super(logger);
    this.resourceMetadata = `${config.publicBaseUrl}/.well-known/oauth-protected-resource/mcp`;
  }

  override catch(exception: unknown, host: ArgumentsHost): void {
    if (exception instanceof ApiError && exception.status === 401) {
      const res = host.switchToHttp().getResponse<Response>();
      const invalid = exception.code !== 'authentication_required';
      const description = exception.message.replace(/["\\]/g, "'");
      const base = `Bearer realm="${MCP_REALM}", resource_metadata="${this.resourceMetadata}"`;
      res.setHeader(
        'WWW-Authenticate',
        invalid ? `${base}, error="invalid_token", error_description="${description}"` : base,
      );
    }
    super.catch(exception, host);
  }
}
