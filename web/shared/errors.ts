/**
 * Every failure the apps show is an ApiError: the API's envelope `{error: {code, message, details?, ...extra}}`
 * (product-decisions §6), or one of two codes of the app's own when there is no envelope to read:
 * `network_error` (no answer) and `unexpected_response` (an answer that is not the envelope).
 */
export interface FieldProblem {
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: FieldProblem[] = [],
    readonly extra: Record<string, unknown> = {},
    readonly requestId: string | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Reads an error answer into an ApiError, whatever its body. */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await response.clone().json();
  } catch {
    // Not JSON: a proxy's page, an empty body.
  }
  return errorFromBody(response.status, body, response.headers.get('x-request-id'));
}

/** An error answer's parsed body (openapi-fetch has already read it) into an ApiError. */
export function errorFromBody(status: number, body: unknown, requestId: string | null): ApiError {
  const envelope = (body as { error?: unknown } | null)?.error;
  if (envelope && typeof envelope === 'object' && typeof (envelope as { code?: unknown }).code === 'string') {
    const { code, message, details, ...extra } = envelope as {
      code: string;
      message?: unknown;
      details?: unknown;
    } & Record<string, unknown>;
    return new ApiError(
      status,
      code,
      typeof message === 'string' ? message : code,
      Array.isArray(details) ? (details as FieldProblem[]) : [],
      extra,
      requestId,
    );
  }
  return new ApiError(status, 'unexpected_response', `HTTP ${status}`, [], {}, requestId);
}

/** Anything thrown (a fetch TypeError, a bug) as an ApiError, so the error component has one shape to show. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof TypeError) return new ApiError(0, 'network_error', err.message);
  return new ApiError(0, 'unexpected_error', err instanceof Error ? err.message : String(err));
}
