import { Accounts1732200000000 } from './1732200000000-accounts';
import { WorkerAccounts1732200002000 } from './1732200002000-worker-accounts';
import { Ledger1732200003000 } from './1732200003000-ledger';
import { Tasks1732200004000 } from './1732200004000-tasks';
import { AdminCredits1732200006000 } from './1732200006000-admin-credits';
import { TaskLifecycle1732200007000 } from './1732200007000-task-lifecycle';
import { Webhooks1732200008000 } from './1732200008000-webhooks';
import { Payments1732200009000 } from './1732200009000-payments';
import { Matching1732200010000 } from './1732200010000-matching';
import { Uploads1732200010100 } from './1732200010100-uploads';
import { IdempotencyOwner1732200020000 } from './1732200020000-idempotency-owner';
import { DeliveryClaimIndex1732200030000 } from './1732200030000-delivery-claim-index';
import { IdempotencyScopes1732200040000 } from './1732200040000-idempotency-scopes';
import { NearbyCells1732200050000 } from './1732200050000-nearby-cells';
import { SandboxWorkers1732200060000 } from './1732200060000-sandbox-workers';
import { TestClocks1732200070000 } from './1732200070000-test-clocks';
import { AuthCacheNotify1732200080000 } from './1732200080000-auth-cache-notify';
import { ReviewFeedback1732200090000 } from './1732200090000-review-feedback';
import { LocationProof1732200091000 } from './1732200091000-location-proof';
import { AssignmentDeadline1732200092000 } from './1732200092000-assignment-deadline';
import { OperatorSessions1732200130000 } from './1732200130000-operator-sessions';
import { OperatorAuditLog1732200131000 } from './1732200131000-operator-audit-log';
import { OnCallOffers1732200140000 } from './1732200140000-on-call-offers';
import { SandboxSms1732200150000 } from './1732200150000-sandbox-sms';
import { PushSubscriptions1732200151000 } from './1732200151000-push-subscriptions';
import { PaymentTypeRequired1732200170000 } from './1732200170000-payment-type-required';
import { AnswerSchemas1732200200000 } from './1732200200000-answer-schemas';
import { WrongAnswersPersona1732200201000 } from './1732200201000-wrong-answers-persona';
import { EventReplay1732200300000 } from './1732200300000-event-replay';
import { PhotoHashes1732200400000 } from './1732200400000-photo-hashes';
import { PositionTrail1732200450000 } from './1732200450000-position-trail';
import { ProofHold1732200451000 } from './1732200451000-proof-hold';
import { UnableOutcome1732200500000 } from './1732200500000-unable-outcome';
import { AgentOwed1732200510000 } from './1732200510000-agent-owed';
import { AssignmentMessages1732200550000 } from './1732200550000-assignment-messages';
import { OAuth1732200600000 } from './1732200600000-oauth';
import { SpendCaps1732200650000 } from './1732200650000-spend-caps';
import { GrantSpending1732200651000 } from './1732200651000-grant-spending';
import { ProofReviewDecisions1732200700000 } from './1732200700000-proof-review-decisions';
import { Disputes1732200710000 } from './1732200710000-disputes';
import { DisputesPersona1732200711000 } from './1732200711000-disputes-persona';
import { WorkerConsents1732200720000 } from './1732200720000-worker-consents';
import { WorkerDeletion1732200721000 } from './1732200721000-worker-deletion';
import { TaskReports1732200730000 } from './1732200730000-task-reports';
import { AgentRecord1732200750000 } from './1732200750000-agent-record';
import { UnablePersona1732200760000 } from './1732200760000-unable-persona';
import { WorkerNotifications1732200770000 } from './1732200770000-worker-notifications';

/** Every migration, in order. Listed explicitly so every runtime (ts-jest, compiled JS) loads the same set. */
export const MIGRATIONS = [
  Accounts1732200000000,
  WorkerAccounts1732200002000,
  Ledger1732200003000,
  Tasks1732200004000,
  AdminCredits1732200006000,
  TaskLifecycle1732200007000,
  Webhooks1732200008000,
  Payments1732200009000,
  Matching1732200010000,
  Uploads1732200010100,
  IdempotencyOwner1732200020000,
  DeliveryClaimIndex1732200030000,
  IdempotencyScopes1732200040000,
  NearbyCells1732200050000,
  SandboxWorkers1732200060000,
  TestClocks1732200070000,
  AuthCacheNotify1732200080000,
  ReviewFeedback1732200090000,
  LocationProof1732200091000,
  AssignmentDeadline1732200092000,
  OperatorSessions1732200130000,
  OperatorAuditLog1732200131000,
  OnCallOffers1732200140000,
  SandboxSms1732200150000,
  PushSubscriptions1732200151000,
  PaymentTypeRequired1732200170000,
  AnswerSchemas1732200200000,
  WrongAnswersPersona1732200201000,
  EventReplay1732200300000,
  PhotoHashes1732200400000,
  PositionTrail1732200450000,
  ProofHold1732200451000,
  UnableOutcome1732200500000,
  AgentOwed1732200510000,
  AssignmentMessages1732200550000,
  OAuth1732200600000,
  SpendCaps1732200650000,
  GrantSpending1732200651000,
  ProofReviewDecisions1732200700000,
  Disputes1732200710000,
  DisputesPersona1732200711000,
  WorkerConsents1732200720000,
  WorkerDeletion1732200721000,
  TaskReports1732200730000,
  AgentRecord1732200750000,
  UnablePersona1732200760000,
  WorkerNotifications1732200770000,
];
