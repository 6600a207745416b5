import { applyDecorators } from '@nestjs/common';
import { ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { CancelTaskResponse, TaskResponse } from '../dtos/task-response.dto';

/** OpenAPI of task creation and cancellation, shared by the two surfaces' controllers. */
export const CreateTaskDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Create a task; its whole cost is held in escrow at once',
      description:
        'Costs budget_cents × max_workers from the available balance. A repeated idempotency_key (body) or Idempotency-Key (header) returns the original 201 response with Idempotent-Replayed: true. With both, the header guards the exact request and the body key the task: one task, and both keys answer it.',
    }),
    ApiHeader({ name: 'Idempotency-Key', required: false, description: 'Any agent write may carry one.' }),
    ApiCreatedResponse({ type: TaskResponse }),
    ApiErrors({
      400: ['validation_error'],
      402: ['insufficient_balance'],
      409: ['idempotency_conflict'],
      429: ['rate_limit_exceeded', 'concurrent_task_limit'],
    }),
  );

export const CancelTaskDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Cancel a pending or assigned task',
      description:
        'Open slots are refunded 100 %; each accepted slot refunds 70 % and pays 30 % to its worker. Refused (409 invalid_state) once work is in progress or a result is submitted.',
    }),
    ApiOkResponse({ type: CancelTaskResponse }),
    ApiErrors({ 404: ['task_not_found'], 409: ['invalid_state'] }),
  );

/** A creation answered from an earlier one with the same body idempotency_key says so, like a header replay. */
export function markReplay(res: Response, replayed: boolean): void {
  if (replayed) res.setHeader('Idempotent-Replayed', 'true');
}
