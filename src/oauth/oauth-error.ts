import { ArgumentsHost, Catch } from '@nestjs/common';
import type { Response } from 'express';
import { AllExceptionsFilter } from '../common/errors/all-exceptions.filter';

/** The error codes of RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 7009 and RFC 8707 this server answers. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_token_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata';

/**
 * An error of an OAuth protocol endpoint (token, registration, revocation). OAuth clients (the MCP SDK's among them)
 * read the RFCs' body `{error, error_description}`, not the service's envelope, so these endpoints answer that;
 * the /v1 routes of the console keep the envelope.
 */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

/** Renders OAuthError as RFC 6749 §5.2 JSON (no-store); anything else (a 429, a 500) in the service's envelope. */
@Catch()
export class OAuthErrorFilter extends AllExceptionsFilter {
  override catch(exception: unknown, host: ArgumentsHost): void {
    if (!(exception instanceof OAuthError)) return super.catch(exception, host);
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) return;
    res.setHeader('Cache-Control', 'no-store');
    if (exception.status === 401) res.setHeader('WWW-Authenticate', 'Basic realm="legwork-oauth"');
    res.status(exception.status).json({ error: exception.error, error_description: exception.description });
  }
}
