import { createApi } from '../shared/api';
import { Session } from '../shared/auth';

/** The worker's session and API client, one of each for the app. */
export const session = new Session('/v1/worker/refresh', 'legwork.app.refresh', '/v1/worker/logout');
export const api = createApi(session);
