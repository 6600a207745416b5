import { ERROR_FIELDS, ErrorField, ValueOf } from './error-fields';

/** One code: its HTTP status, a one-line summary, optional detail for docs/errors.md, and its context fields. */
interface ErrorSpec {
  status: number;
  summary: string;
  detail?: string;
  fields: readonly ErrorField[];
}

/**
 * The closed list of error codes the API answers with, and the context fields each may carry beside `code` and
 * `message`. Adding a code or a field is a deliberate act: it is public contract. From this one table come the
 * error schema in the OpenAPI (ErrorBody), the per-operation error descriptions (@ApiErrors), the typing of
 * `new ApiError(code, message, extra)` and docs/errors.md (written by `npm run openapi`, drift-checked in CI).
 * Summaries and details state what happened and what to do; limits belong in the fields, not in the prose.
 */
export const ERRORS = {
  validation_error: {
    status: 400,
    summary: 'A parameter, query value, header or body field is missing or invalid.',
    detail:
      'Also answers an unknown body field (fields are never silently dropped) and a malformed `Idempotency-Key` ' +
      'header. Fix the fields in `details` and send again.',
    fields: ['details'],
  },
  invalid_json: {
    status: 400,
    summary: 'The body is not valid JSON.',
    fields: ['details'],
  },
  invalid_body: {
    status: 400,
    summary: 'The body could not be read.',
    detail:
      'A compressed body (`Content-Encoding` gzip, br or deflate) whose bytes do not decompress, a body cut short, ' +
      'or JSON nested more deeply than `details` says is allowed. Send the body again, whole and as labelled.',
    fields: ['details'],
  },
  amount_mismatch: {
    status: 400,
    summary: 'The payment amount differs from what the task costs.',
    fields: ['expected_amount', 'provided_amount', 'currency'],
  },
  refund_not_allowed: {
    status: 400,
    summary: 'This order cannot be refunded through the API.',
    detail:
      'Only completed payments are refunded; bank transfers are refunded by an operator; on `/api/v1` a ' +
      'completed payment is already balance, so `refund_method` `balance` is refused.',
    fields: ['current_status'],
  },
  already_refunded: {
    status: 400,
    summary: 'The order has been refunded in full already.',
    fields: ['refund_id', 'refunded_at'],
  },
  payment_method_unavailable: {
    status: 400,
    summary: 'The payment method is not offered here, or not to this account.',
    detail:
      'The provider is not configured on this server (payments, refunds or withdrawals through it), or bank ' +
      'transfer was asked for by an agent that is not enterprise tier.',
    fields: ['available_methods'],
  },
  daily_limit_exceeded: {
    status: 400,
    summary: 'The payment would take the agent past its daily payment limit, which its tier sets.',
    fields: ['daily_limit_cents', 'used_today_cents', 'requested_cents'],
  },
  invalid_sms_code: {
    status: 400,
    summary: 'The SMS code is wrong, expired, already used or replaced by a newer one.',
    detail: 'Too many wrong tries burn the code; request a new one then.',
    fields: ['attempts_remaining'],
  },
  photo_gps_missing: {
    status: 400,
    summary: 'The photo has no GPS position in its EXIF data.',
    detail:
      'Take the photo with location tagging on. Where the task allows `photo_or_device_gps`, send the device ' +
      'location with the submission instead (`device_location`). The assignment is unchanged.',
    fields: [],
  },
  photo_location_mismatch: {
    status: 400,
    summary: 'The photo was taken too far from the task.',
    detail:
      'Judged by its EXIF GPS, or by the device location when the photo has none. The assignment is unchanged.',
    fields: ['distance_meters', 'max_distance_meters', 'location_source'],
  },
  device_location_stale: {
    status: 400,
    summary: 'The device location sent in place of EXIF GPS is too old.',
    detail:
      'Read the position again when the photo is taken and submit it at once. The assignment is unchanged.',
    fields: ['age_seconds', 'max_age_seconds'],
  },
  device_location_inaccurate: {
    status: 400,
    summary: 'The device location sent in place of EXIF GPS is not precise enough.',
    detail: 'Wait for a better fix (outdoors, GPS on) and submit again. The assignment is unchanged.',
    fields: ['accuracy_m', 'max_accuracy_m'],
  },
  photo_required: {
    status: 400,
    summary: 'A photo task needs at least one photo whose location was checked.',
    detail:
      'Submit with submit-with-photo, or attach an uploaded JPEG or PNG in `photo_urls`. The assignment is unchanged.',
    fields: [],
  },
  answer_invalid: {
    status: 400,
    summary: "The result_data does not follow the task's answer_schema.",
    detail:
      'One entry in `details` per field: `field` is `result_data.<name>` (or `result_data` for the answer as a ' +
      'whole) and `message` says what the field needs. A photo field must hold the URL of a photo the worker ' +
      'uploaded. Nothing was recorded: fix the answers and submit again.',
    fields: ['details'],
  },
  invalid_photo: {
    status: 400,
    summary: 'The image is damaged: it is a JPEG or PNG by its bytes but cannot be read.',
    fields: ['field'],
  },
  authentication_required: {
    status: 401,
    summary: 'No credential: send `Authorization: Bearer <API key or access token>`.',
    fields: [],
  },
  invalid_api_key: {
    status: 401,
    summary: 'The API key is unknown, revoked or expired.',
    fields: [],
  },
  invalid_token: {
    status: 401,
    summary: 'The access or refresh token is invalid, expired or revoked, or its account no longer exists.',
    detail:
      'A refresh token used twice revokes its whole family (a stolen token is useless once the owner refreshes): ' +
      'log in again.',
    fields: [],
  },
  invalid_credentials: {
    status: 401,
    summary: 'Wrong login credentials, or a missing or wrong `X-API-Secret` on `/api/v1/payment/*`.',
    fields: [],
  },
  session_expired: {
    status: 401,
    summary:
      'The operator session has lasted as long as a session may (12 hours from sign-in): sign in again.',
    detail:
      'Refreshing does not extend an operator session; the session is ended and its refresh token refused.',
    fields: [],
  },
  invalid_totp_code: {
    status: 401,
    summary: 'The two-factor code or recovery code is wrong, expired or already used.',
    detail:
      'A code works once, within about 30 seconds of its time; a recovery code works once. Wrong codes count as ' +
      'failed logins towards the account lock-out. Send the next code from the authenticator app.',
    fields: [],
  },
  insufficient_balance: {
    status: 402,
    summary: 'The available balance does not cover the amount.',
    detail:
      'An agent funds its balance through `/v1/payment/create`; a worker withdraws at most what is available. A ' +
      'refund to the payer keeps back `reserved_cents`, what open and still-disputable rejections could cost.',
    fields: ['balance_cents', 'required_cents', 'reserved_cents'],
  },
  spend_cap_exceeded: {
    status: 402,
    summary: "The task would take this API key's (or OAuth grant's) spending past its cap for the period.",
    detail:
      'Counted: the totals of the tasks the key or grant created in the period (China time day or month), less the ' +
      'refunds later made on them. Nothing was created or held. Wait for `resets_at`, raise the cap in the ' +
      'console, or have the person approve this one task (`POST /v1/spend-approvals`, then create it again with ' +
      '`spend_approval_id`).',
    fields: ['period', 'cap_cents', 'counted_cents', 'remaining_cents', 'resets_at'],
  },
  spend_approval_over_ceiling: {
    status: 402,
    summary: 'The task costs more than a person may approve over the cap for this API key or grant.',
    detail:
      "The ceiling is the key's `approval_ceiling_cents` (set in the console) or the grant's ceiling set at " +
      'consent; none set means no task can be approved over the cap. Raise it or the cap in the console.',
    fields: ['ceiling_cents', 'required_cents'],
  },
  insufficient_permissions: {
    status: 403,
    summary: 'The API key lacks the permission this operation needs.',
    fields: ['required_permission'],
  },
  forbidden: {
    status: 403,
    summary: 'This credential may not do this.',
    detail:
      'A valid credential of the wrong kind (a worker token on an agent route, an API key on a JWT-only route), ' +
      'or a worker rating a task that is not completed or on which their result was not approved.',
    fields: ['current_status'],
  },
  account_disabled: {
    status: 403,
    summary: 'The account is suspended or closed.',
    fields: [],
  },
  consent_required: {
    status: 403,
    summary: 'Going on call and reporting a position need your consent to the use of your precise location.',
    detail:
      'Precise location is sensitive personal information (PIPL): read `GET /v1/worker/consents`, give consent with ' +
      '`POST /v1/worker/consents`, then try again. Also answered when a newer version of the text asks again.',
    fields: ['consent_kind', 'consent_version'],
  },
  worker_suspended: {
    status: 403,
    summary: 'The worker account is suspended after a confirmed fraud: no going on call and no taking tasks.',
    detail:
      'Signing in, reading your state and asking for a review (`POST /v1/worker/reviews`, subject `suspension`) ' +
      'still work. `suspension_id` names the suspension.',
    fields: ['suspension_id'],
  },
  withdrawals_paused: {
    status: 403,
    summary: "The worker's withdrawals are paused for review after a confirmed fraud.",
    detail:
      'The balance stays yours; ask for a review (`POST /v1/worker/reviews`, subject `suspension`). ' +
      '`suspension_id` names the pause.',
    fields: ['suspension_id'],
  },
  two_factor_required: {
    status: 403,
    summary: 'This operator action needs an operator who signs in with two-factor.',
    detail: 'Turn two-factor sign-in on first (`POST /v1/admin/me/totp`), then try again.',
    fields: [],
  },
  not_eligible: {
    status: 403,
    summary: "The worker lacks the task's required skills or reputation.",
    fields: ['missing_skills', 'min_reputation', 'worker_reputation'],
  },
  not_found: {
    status: 404,
    summary: 'No such route or resource, or it belongs to someone else.',
    detail:
      'For an agent, API key, webhook endpoint, event, withdrawal, uploaded file or an unknown path. Another ' +
      "account's resources answer the same as missing ones.",
    fields: [],
  },
  oauth_request_not_found: {
    status: 404,
    summary: 'No such authorization request: it is unknown, expired (10 minutes) or already answered.',
    detail: 'Start the sign-in again from the app that asked (claude.ai, ChatGPT, ...).',
    fields: [],
  },
  oauth_grant_not_found: {
    status: 404,
    summary: 'No such OAuth grant, it was already revoked, or it belongs to another agent.',
    fields: [],
  },
  task_not_found: {
    status: 404,
    summary: 'No such task, or it belongs to another agent.',
    fields: [],
  },
  dispute_not_found: {
    status: 404,
    summary: 'No such dispute, or it is not about your task.',
    fields: [],
  },
  test_clock_not_found: {
    status: 404,
    summary: 'No such test clock, it was deleted, or it belongs to another agent (sandbox mode).',
    fields: [],
  },
  sandbox_worker_not_found: {
    status: 404,
    summary: 'No such simulated worker, it was deleted, or it belongs to another agent (sandbox mode).',
    fields: [],
  },
  result_not_available: {
    status: 404,
    summary: 'No worker has submitted a result for the task yet.',
    fields: ['current_status'],
  },
  order_not_found: {
    status: 404,
    summary: 'No such payment order for this agent (and payment method, where given).',
    fields: [],
  },
  assignment_not_found: {
    status: 404,
    summary: 'No such assignment, or it is not yours.',
    fields: [],
  },
  conflict: {
    status: 409,
    summary: 'The request conflicts with existing data.',
    detail:
      'The agent already has the most webhook endpoints allowed, or a bank reference already confirmed another ' +
      'order.',
    fields: [],
  },
  review_already_open: {
    status: 409,
    summary: 'A review request for this subject is already open.',
    detail: '`review_id` names it; an operator answers it once.',
    fields: ['review_id'],
  },
  email_taken: {
    status: 409,
    summary: 'An account with this email exists.',
    fields: [],
  },
  phone_taken: {
    status: 409,
    summary: 'A worker with this phone number exists.',
    fields: [],
  },
  duplicate_order: {
    status: 409,
    summary: 'The task already has an open or completed payment order.',
    fields: [],
  },
  open_assignments: {
    status: 409,
    summary: 'The account cannot be deleted while it holds tasks that are not finished.',
    detail:
      'Finish, submit or abandon every task you took, wait for the review of those you submitted, and answer or let ' +
      'lapse the offers waiting for you; then ask again.',
    fields: [],
  },
  open_disputes: {
    status: 409,
    summary: 'The account cannot be deleted while one of your disputes is not decided.',
    detail: 'Wait until an operator decides every dispute you opened, then ask again.',
    fields: [],
  },
  open_withdrawals: {
    status: 409,
    summary: 'The account cannot be deleted while a withdrawal is under review or being paid.',
    detail: 'Wait until every withdrawal is completed, failed or rejected, then ask again.',
    fields: [],
  },
  dispute_window_closed: {
    status: 409,
    summary: 'The window for this step of a dispute has closed.',
    detail:
      'A rejection may be disputed for 72 hours after it, and the agent may answer a dispute for 48 hours after it ' +
      'opened, both on the task’s time (a sandbox test clock’s for a task on one). `closed_at` says when it closed.',
    fields: ['closed_at'],
  },
  already_disputed: {
    status: 409,
    summary: 'This rejection is disputed already; a rejection is disputed once.',
    detail: '`dispute_id` names the dispute: follow it in the worker app or with the assignment.',
    fields: ['dispute_id'],
  },
  already_reported: {
    status: 409,
    summary: 'You have reported this task already and an operator has not decided yet.',
    detail: '`report_id` names your open report; one open report per worker and task.',
    fields: ['report_id'],
  },
  dispute_not_decidable: {
    status: 409,
    summary:
      'The agent may still answer this dispute; it can be decided once answered or when the window closes.',
    detail: '`response_due_at` says when the agent’s window closes.',
    fields: ['response_due_at'],
  },
  invalid_state: {
    status: 409,
    summary: 'The task, assignment, order or withdrawal is in a status that does not allow this action.',
    detail: 'Read the resource again: `current_status` says where it stands.',
    fields: ['current_status', 'assignment_status', 'deadline_at'],
  },
  idempotency_conflict: {
    status: 409,
    summary: 'The idempotency key was used for a different request, or its first request is still running.',
    detail:
      'A different method, path or body with the same `Idempotency-Key` (or task `idempotency_key`) is refused. ' +
      'With `in_progress` the first request has not finished: retry shortly to get its answer. A first response ' +
      'that carried a credential shown once is not replayed. Any agent write that carries an `Idempotency-Key` ' +
      'may answer it.',
    fields: ['task_id', 'in_progress'],
  },
  task_full: {
    status: 409,
    summary: 'Every slot of the task is taken.',
    fields: ['max_workers'],
  },
  already_assigned: {
    status: 409,
    summary: 'You already hold this task.',
    fields: ['assignment_id', 'assignment_status'],
  },
  assignment_limit_reached: {
    status: 409,
    summary: 'The worker holds as many unfinished assignments as allowed; finish or abandon one first.',
    detail: 'The limit is lower while the worker has a low reputation.',
    fields: ['limit', 'live_assignments'],
  },
  already_rated: {
    status: 409,
    summary: 'You have rated this task already.',
    fields: [],
  },
  precondition_failed: {
    status: 412,
    summary:
      'A condition of the request (If-Match, If-Unmodified-Since) does not hold for the file as it is now.',
    detail: "Answered for the web apps' files (/app, /console). Fetch the file again without the condition.",
    fields: [],
  },
  payload_too_large: {
    status: 413,
    summary: 'The body or an uploaded file is too large.',
    fields: ['max_bytes'],
  },
  unsupported_media_type: {
    status: 415,
    summary: 'The content type is not accepted: an upload is judged by its bytes, not its name or header.',
    fields: ['field', 'detected_type', 'accepted_types'],
  },
  range_not_satisfiable: {
    status: 416,
    summary: 'The byte range asked for lies outside the file.',
    detail:
      "Answered for the web apps' files (/app, /console). `Content-Range: bytes */<length>` gives the length of " +
      'the file in the coding the request accepts; ask for a range within it, or for the whole file.',
    fields: [],
  },
  rate_limit_exceeded: {
    status: 429,
    summary: 'Too many requests; wait `retry_after` seconds.',
    detail: 'See the `X-RateLimit-*` headers on every response for the budget left.',
    fields: ['retry_after'],
  },
  concurrent_task_limit: {
    status: 429,
    summary: 'The agent has as many live tasks as its limit allows.',
    fields: ['max_concurrent_tasks', 'active_tasks'],
  },
  too_many_concurrent_uploads: {
    status: 429,
    summary: 'The worker has as many uploads in flight as allowed; retry after `retry_after` seconds.',
    detail:
      'Counted across every instance. An upload holds its slot from its first byte until its answer, whether it ' +
      'succeeds or not.',
    fields: ['max_concurrent_uploads', 'retry_after'],
  },
  upload_quota_exceeded: {
    status: 429,
    summary:
      "The upload would take the worker past the daily byte quota; it renews at 00:00 UTC ('retry_after').",
    detail:
      'All files of one request count together, and nothing of a refused request is kept. An upload is refused as ' +
      'soon as its bytes pass the quota, before the rest is read.',
    fields: ['daily_quota_bytes', 'used_today_bytes', 'retry_after'],
  },
  account_locked: {
    status: 429,
    summary: 'Too many failed logins: the account is locked for `retry_after` seconds.',
    fields: ['retry_after'],
  },
  internal_error: {
    status: 500,
    summary: 'An unexpected error. Nothing internal is shown; quote `request_id` when reporting it.',
    detail:
      'Any operation may answer it. A request with an `Idempotency-Key` may be retried with the same key.',
    fields: [],
  },
  provider_error: {
    status: 502,
    summary: 'The payment or SMS provider refused or failed.',
    fields: ['order_id', 'retry_allowed', 'provider_code'],
  },
  service_unavailable: {
    status: 503,
    summary:
      'A dependency is unavailable for a moment (the database, Redis or SMS delivery), or this instance is ' +
      'shutting down; retry after `retry_after`.',
    detail:
      'Any operation may answer it when the database connection is lost; retry with the same `Idempotency-Key`. ' +
      'The health and readiness probes say which dependency is down.',
    fields: ['retry_after', 'database', 'redis', 'draining'],
  },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERRORS;
/** The codes in catalogue order. */
export const ERROR_CODE_LIST = Object.keys(ERRORS) as ErrorCode[];

/** The HTTP status of a code, as a literal type. */
export type StatusOf<C extends ErrorCode> = (typeof ERRORS)[C]['status'];
export type ErrorStatus = StatusOf<ErrorCode>;
/** Each code's HTTP status. */
export const ERROR_CODES = Object.fromEntries(ERROR_CODE_LIST.map((c) => [c, ERRORS[c].status])) as {
  [C in ErrorCode]: StatusOf<C>;
};
/** The codes answered with status S. */
export type CodesWithStatus<S extends ErrorStatus> = {
  [C in ErrorCode]: StatusOf<C> extends S ? C : never;
}[ErrorCode];

type FieldsOf<C extends ErrorCode> = (typeof ERRORS)[C]['fields'][number];
/** The context an error with code C may carry: only its own fields, each typed by its schema. */
export type ErrorExtra<C extends ErrorCode> = [FieldsOf<C>] extends [never]
  ? Record<string, never>
  : { [F in FieldsOf<C>]?: ValueOf<(typeof ERROR_FIELDS)[F]['schema']> };

export function statusOf(code: ErrorCode): number {
  return ERRORS[code].status;
}

/** The codes that may carry a field, in catalogue order. */
export function codesCarrying(field: ErrorField): ErrorCode[] {
  return ERROR_CODE_LIST.filter((c) => (ERRORS[c].fields as readonly ErrorField[]).includes(field));
}
