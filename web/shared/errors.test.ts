import { describe, expect, it } from 'vitest';
import { ApiError, errorFromBody, toApiError } from './errors';

describe('reading errors', () => {
  it('reads the envelope: code, message, field details and extra fields', () => {
    const e = errorFromBody(
      400,
      {
        error: {
          code: 'photo_location_mismatch',
          message: 'The photo was taken 300 m from the task.',
          details: [{ field: 'photo', message: 'too far' }],
          distance_meters: 300,
        },
      },
      'req-1',
    );
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ status: 400, code: 'photo_location_mismatch', requestId: 'req-1' });
    expect(e.details).toEqual([{ field: 'photo', message: 'too far' }]);
    expect(e.extra).toEqual({ distance_meters: 300 });
  });

  it('names an answer that is not the envelope, a lost connection and anything else thrown', () => {
    expect(errorFromBody(502, '<html>Bad gateway</html>', null)).toMatchObject({
      code: 'unexpected_response',
    });
    expect(toApiError(new TypeError('Failed to fetch'))).toMatchObject({ code: 'network_error', status: 0 });
    expect(toApiError(new Error('boom'))).toMatchObject({ code: 'unexpected_error', message: 'boom' });
    const same = new ApiError(409, 'task_full', 'full');
    expect(toApiError(same)).toBe(same);
  });
});
