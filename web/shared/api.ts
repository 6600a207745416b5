import createClient from 'openapi-fetch';
import type { components, paths } from '@legwork/sdk/types';
import type { Session } from './auth';
import { errorFromBody, toApiError } from './errors';

/**
 * The apps' API client: openapi-fetch over the types the SDK generates from openapi/openapi.json
 * (`@legwork/sdk/types`), so a request or a field the public API does not have is a type error. Same origin,
 * public /v1 routes only; the session adds the bearer token and renews it (auth.ts).
 */
export type Schemas = components['schemas'];
export type Api = ReturnType<typeof createClient<paths>>;

export function createApi(session: Session): Api {
  return createClient<paths>({ baseUrl: '', fetch: session.fetch });
}

/**
 * Awaits an openapi-fetch call and returns its data, or throws its error as an ApiError (the envelope's code,
 * message, details and extra fields), so screens handle one kind of failure.
 */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch (err) {
    throw toApiError(err);
  }
  const { response } = result;
  if (!response.ok) throw errorFromBody(response.status, result.error, response.headers.get('x-request-id'));
  return result.data as T;
}
