import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { CreateTaskRequest } from '../dtos/create-task.dto';
import { TaskFeedbackRequest } from '../dtos/task-requests.dto';
import { CancelTaskResponse, TaskResponse } from '../dtos/task-response.dto';

/** Creation bodies a reader can start from (also the quote's body). */
export const CreateTaskBody = () =>
  ApiBody({
    type: CreateTaskRequest,
    examples: {
      photo: {
        summary: 'One photo of a storefront',
        value: {
          title: 'Is the bakery on Nanjing East Road open?',
          description: 'Photograph the storefront with the opening hours sign readable.',
          location: { latitude: 31.2352, longitude: 121.4747, address: 'Nanjing East Rd 300, Shanghai' },
          budget_cents: 5000,
          deadline_at: '2030-06-01T12:00:00+08:00',
          task_type: 'photo',
          requirements: { skills: ['photography'], min_reputation: 3.5 },
          idempotency_key: 'bakery-check-2030-06-01',
        },
      },
      web_app_workers: {
        summary: 'A photo from phone browsers that strip EXIF GPS: the device location may prove the place',
        value: {
          title: 'Photograph the queue at the ticket office',
          description: 'One photo of the queue, taken from the entrance.',
          location: { latitude: 22.5431, longitude: 114.0579 },
          budget_cents: 2000,
          deadline_at: '2030-06-01T20:00:00+08:00',
          task_type: 'photo',
          requirements: { location_proof: 'photo_or_device_gps' },
        },
      },
      typed_answers: {
        summary:
          'Typed answers: the worker fills exactly these fields (answer_schema), and result.data follows them',
        value: {
          title: 'Is the bakery on Nanjing East Road open, and when?',
          description: 'Check the door and the opening hours sign; photograph the storefront.',
          location: { latitude: 31.2352, longitude: 121.4747, address: 'Nanjing East Rd 300, Shanghai' },
          budget_cents: 3000,
          deadline_at: '2030-06-01T12:00:00+08:00',
          task_type: 'photo',
          answer_schema: {
            $schema: 'https://json-schema.org/draft/2020-12/schema',
            type: 'object',
            properties: {
              open: { type: 'boolean', title: 'Is it open now?' },
              opens_at: { type: 'string', format: 'time', title: 'Opening time on the sign' },
              queue: { type: 'integer', minimum: 0, maximum: 200, title: 'People queueing' },
              payment: {
                type: 'array',
                title: 'Payment accepted',
                items: { type: 'string', enum: ['cash', 'alipay', 'wechat', 'card'] },
              },
              storefront: { type: 'string', format: 'photo', title: 'Photo of the storefront' },
              notes: { type: 'string', maxLength: 500, title: 'Anything unusual?' },
            },
            required: ['open', 'storefront'],
          },
        },
      },
      agreement: {
        summary: 'Three workers answer; two that agree are approved and paid automatically (review_policy)',
        value: {
          title: 'Does the pharmacy at the station sell masks?',
          description: 'Ask at the counter.',
          location: { latitude: 39.9042, longitude: 116.4074 },
          budget_cents: 1500,
          max_workers: 3,
          deadline_at: '2030-06-02T18:00:00Z',
          task_type: 'verification',
          answer_schema: {
            type: 'object',
            properties: {
              sells_masks: { type: 'boolean', title: 'Do they sell masks?' },
              kinds: {
                type: 'array',
                title: 'Which kinds?',
                items: { type: 'string', enum: ['surgical', 'n95', 'cloth'] },
              },
            },
            required: ['sells_masks', 'kinds'],
          },
          review_policy: { type: 'agreement', fields: ['sells_masks', 'kinds'], min_agreeing: 2 },
        },
      },
      survey: {
        summary: 'Three workers collect prices within 2 km',
        value: {
          title: 'Price of a 500 ml bottle of water in three shops',
          description: 'Visit three different shops near the station and note the price and the brand.',
          location: { latitude: 39.9042, longitude: 116.4074, max_distance_meters: 2000 },
          budget_cents: 3000,
          max_workers: 3,
          deadline_at: '2030-06-02T18:00:00Z',
          task_type: 'data_collection',
          metadata: { campaign: 'water-prices', batch: 7 },
        },
      },
    },
  });

/** OpenAPI of task creation and cancellation, shared by the two surfaces' controllers. */
export const CreateTaskDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Create a task; its whole cost is held in escrow at once',
      description:
        'Costs budget_cents × max_workers from the available balance. With an API key (or OAuth grant) that has spend caps, the cost must also fit them (402 spend_cap_exceeded otherwise), or name a spend approval a person gave for this exact body (spend_approval_id). A repeated idempotency_key (body) or Idempotency-Key (header) returns the original 201 response with Idempotent-Replayed: true. With both, the header guards the exact request and the body key the task: one task, and both keys answer it.',
    }),
    ApiHeader({ name: 'Idempotency-Key', required: false, description: 'Any agent write may carry one.' }),
    CreateTaskBody(),
    ApiCreatedResponse({ type: TaskResponse }),
    ApiErrors({
      400: ['validation_error'],
      402: ['insufficient_balance', 'spend_cap_exceeded'],
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

/** Review bodies: approve, and reject. */
export const FeedbackBody = () =>
  ApiBody({
    type: TaskFeedbackRequest,
    examples: {
      approve: {
        summary: 'Approve every submitted result (pays the workers)',
        value: {
          accept_result: true,
          rating: 5,
          quality_score: 4.5,
          feedback_text: 'Clear photos, thank you.',
        },
      },
      reject: {
        summary:
          'Reject one worker’s result with a reason the worker sees (refunds that slot; scores optional)',
        value: {
          accept_result: false,
          assignment_id: '6456d0c2-8f2e-4c1a-9b7e-2d3f4a5b6c7d',
          reason_code: 'wrong_location',
          feedback_text: 'The photo shows a different shop.',
        },
      },
      reject_plain: {
        summary: 'Reject in the interface spec’s shape: no reason_code, filed under `other`',
        value: {
          accept_result: false,
          rating: 1,
          quality_score: 0.5,
          feedback_text: 'Too blurry to read the sign.',
        },
      },
    },
  });

/** A creation answered from an earlier one with the same body idempotency_key says so, like a header replay. */
export function markReplay(res: Response, replayed: boolean): void {
  if (replayed) res.setHeader('Idempotent-Replayed', 'true');
}
