export {
  Legwork,
  type LegworkOptions,
  type RegisterOptions,
  type Registration,
  type Schemas,
} from './client';
export type { RequestOptions } from './requester';
export { Account } from './resources/account';
export { SpendApprovals } from './resources/spend-approvals';
export { Balance } from './resources/balance';
export { Events, type EventListParams } from './resources/events';
export { Payments } from './resources/payments';
export { Sandbox } from './resources/sandbox';
export { Tasks, type TaskListParams } from './resources/tasks';
export { Webhooks } from './resources/webhooks';
export type { EmptyResult, LastResponse, WithLastResponse } from './response';
export type { Answers, AnswerSchema, TaskCreateBody, TypedTaskResult } from './answers';
export * from './errors';
export { PagePromise, type Page } from './pagination';
export type { RetryOptions } from './retry';
export { verifyWebhook, type HeadersLike, type VerifyOptions, type WebhookEvent } from './webhook-signature';
export type { components, paths, operations } from './generated/openapi';
