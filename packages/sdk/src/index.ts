export { Legwork, Account, Tasks, Balance, Payments, Events, Webhooks, Sandbox } from './client';
export type { LegworkOptions, RequestOptions, Schemas, TaskListParams, EventListParams } from './client';
export * from './errors';
export { PagePromise, type Page } from './pagination';
export type { RetryOptions } from './retry';
export { verifyWebhook, type HeadersLike, type VerifyOptions, type WebhookEvent } from './webhooks';
export type { components, paths, operations } from './generated/openapi';
