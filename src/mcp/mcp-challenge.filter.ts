import { ArgumentsHost, Catch } from '@nestjs/common';
import type { Response } from 'express';
import { AllExceptionsFilter } from '../common/errors/all-exceptions.filter';
import { ApiError } from '../common/errors/api-error';

/** The realm the /mcp challenge names. */
export const MCP_REALM = 'legwork-mcp';

/**
 * The /mcp endpoint's errors: the service's envelope, plus the bearer challenge (RFC 6750 §3) on a 401, which MCP
 * clients read to learn that the endpoint wants `Authorization: Bearer <API key>`. Without a credential the
 * challenge names only the realm; with a wrong one it adds `error="invalid_token"`.
 */
@Catch()
export class McpChallengeFilter extends AllExceptionsFilter {
  override catch(exception: unknown, host: ArgumentsHost): void {
    if (exception instanceof ApiError && exception.status === 401) {
      const res = host.switchToHttp().getResponse<Response>();
      const invalid = exception.code !== 'authentication_required';
      const description = exception.message.replace(/["\\]/g, "'");
      res.setHeader(
        'WWW-Authenticate',
        invalid
          ? `Bearer realm="${MCP_REALM}", error="invalid_token", error_description="${description}"`
          : `Bearer realm="${MCP_REALM}"`,
      );
    }
    super.catch(exception, host);
  }
}
