import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import type { AssignmentEventName } from '../../events/event-catalog';
import { inTransaction } from '../../database/transaction';
import type {
  AssignmentResponse,
  TaskSubmissionRequest,
  TaskSubmissionResponse,
  UnableReportRequest,
  UnableReportResponse,
} from '../dtos/worker-task.dto';
import { AssignmentStatus } from '../domain/task-status';
import { UploadService } from '../../upload/services/upload.service';
import type { DeviceFix } from '../domain/location-proof';
import { judgeAnswers, judgeProof } from '../domain/proof-rules';
import { answerSchemaModel } from '../domain/answer-schema';
import { photoAnswers } from '../domain/answer-validation';
import { AssignmentRow, Photo, TaskRepository, TaskRow } from '../task.repository';
import { WorkerReputation } from '../../matching/services/worker-reputation';
import { PositionTrail } from '../../matching/services/position-trail';
import { submissionPosition } from '../domain/submission-position';
import { travelSignal, withSignal } from '../domain/travel-signal';
import { reviewRequired, submissionRisk } from '../domain/proof-hold';
import { deviceFixOf, deviceLocationView, PhotoVerifier } from './photo-verifier';
import { TaskDispatch } from './task-dispatch';
import { TaskEvents } from './task-events';
import { TaskAgreement } from './task-agreement';
import { TaskChanges, TaskSettlement, unableSplit } from './task-settlement';
import { countOffer } from '../../observability/metrics';

/**
 * What a worker does with an assignment once it holds one: start, submit, abandon. Every action locks the task
 * row first (the same lock as accept, review, cancel and the sweeps), then moves the assignment only from the
 * states it may leave, so a late or repeated request is a clean 409 rather than a double transition.
 */
@Injectable()
export class AssignmentService {
  constructor(
    private readonly ds: DataSource,
    private readonly settlement: TaskSettlement,
    private readonly dispatch: TaskDispatch,
    private readonly events: TaskEvents,
    private readonly reputation: WorkerReputation,
    private readonly uploads: UploadService,
    private readonly verifier: PhotoVerifier,
    private readonly agreement: TaskAgreement,
    private readonly clock: Clock,
  ) {}

  start(actor: WorkerActor, assignmentId: string): Promise<AssignmentResponse> {
    return this.act(
      actor,
      assignmentId,
      async (em, task, a, now) => {
        beforeDeadline(task, a, now);
        return this.moveWithEvent(
          em,
          a,
          ['accepted'],
          'in_progress',
          now,
          { started_at: now },
          'assignment.started',
        );
      },
      {},
      true,
    );
  }

  /**
   * A result with optional photo_urls, which must be the worker's own uploads. Every image among them passes the
   * same location check as a submit-with-photo file (EXIF GPS, or the device_location where the task allows it);
   * a refusal leaves the assignment as it was.
   */
  submit(
    actor: WorkerActor,
    assignmentId: string,
    dto: TaskSubmissionRequest,
  ): Promise<TaskSubmissionResponse> {
    const urls = dto.photo_urls ?? [];
    const device = deviceFixOf(dto.device_location, this.clock.now());
    return this.submitResult(
      actor,
      assignmentId,
      { result_data: dto.result_data, worker_notes: dto.worker_notes ?? null, device },
      (em, task, a, now) => this.urlPhotos(em, actor, urls, task, a, device, now),
    );
  }

  /**
   * Submission shared by both routes: `photos` runs in the transaction, under the task lock, once the assignment
   * is known to be submittable and before the state change (it may refuse the photos, or record an upload that
   * must commit together with the submission). Before it, the answers are judged (the answer_schema, product-decisions
   * §17: 400 answer_invalid); after it, each photo field's upload is checked like a proof photo and listed with its
   * field. Then the proof rules of the task's type judge the whole submission (domain/proof-rules.ts: a photo task
   * needs a checked photo, product-decisions §10). A task under agreement review then approves what agrees.
   */
  async submitResult(
    actor: WorkerActor,
    assignmentId: string,
    content: { result_data: Record<string, unknown>; worker_notes: string | null; device: DeviceFix | null },
    photos: (em: EntityManager, task: TaskRow, a: AssignmentRow, now: Date) => Promise<Photo[]>,
  ): Promise<TaskSubmissionResponse> {
    const moved = await this.submission(
      actor,
      assignmentId,
      async (em, task, a, now) => {
        const judged = judgeAnswers(task, content.result_data);
        if (judged.refusal) throw judged.refusal;
        let list = [
          ...(await photos(em, task, a, now)),
          ...(await this.fieldPhotos(em, actor, task, a, judged.answers, content.device, now)),
        ];
        const submission = { ...content, result_data: judged.answers };
        const [refusal] = judgeProof({ task, submission, photos: list }).refusals;
        if (refusal) throw refusal;
        // Impossible travel (product-decisions §18): this submission's position against the worker's previous known
        // one, then the position joins the trail.
        const position = submissionPosition(a.worker_id, task, content.device, list, now);
        if (position) {
          const here = { ...position, accuracy_m: position.accuracyM };
          const signal = travelSignal(await PositionTrail.previous(em, a.worker_id, position.at), here);
          if (signal) list = withSignal(list, signal);
          await PositionTrail.record(em, position);
        }
        const moved = await this.moveWithEvent(
          em,
          a,
          SUBMITTABLE,
          'submitted',
          now,
          {
            submitted_at: now,
            result_data: JSON.stringify(judged.answers),
            worker_notes: content.worker_notes,
            photos: JSON.stringify(list),
            device_location: content.device ? JSON.stringify(deviceLocationView(content.device)) : null,
            review_required: reviewRequired(submissionRisk(list)),
          },
          'assignment.submitted',
        );
        return { moved, current: await this.agreement.settle(em, task, now) };
      },
      'submitted',
    );
    return {
      assignment_id: moved.assignment_id,
      task_id: moved.task_id,
      status: 'submitted',
      submitted_at: moved.updated_at,
    };
  }

  /**
   * "Could not do it" (product-decisions §19): from a live assignment (accepted or in progress) before the deadline,
   * the worker submits a report instead of a result: a reason, a note, and optionally photos of what they found,
   * checked like proof photos. It waits for the agent's ordinary review (or the 72-hour auto-approval) as a result
   * does; accepted, it pays the task's unable share (TaskSettlement.approve).
   */
  async unable(
    actor: WorkerActor,
    assignmentId: string,
    dto: UnableReportRequest,
  ): Promise<UnableReportResponse> {
    const urls = dto.photo_urls ?? [];
    const device = deviceFixOf(dto.device_location, this.clock.now());
    let payment = 0;
    const moved = await this.submission(
      actor,
      assignmentId,
      async (em, task, a, now) => {
        const photos = await this.urlPhotos(em, actor, urls, task, a, device, now);
        payment = unableSplit(task).workerCents;
        return this.moveWithEvent(
          em,
          a,
          SUBMITTABLE,
          'submitted',
          now,
          {
            submitted_at: now,
            outcome: 'unable',
            unable_reason: dto.reason,
            result_data: null,
            worker_notes: dto.note,
            photos: JSON.stringify(photos),
            device_location: device ? JSON.stringify(deviceLocationView(device)) : null,
          },
          'assignment.submitted',
        );
      },
      'reported',
    );
    return {
      assignment_id: moved.assignment_id,
      task_id: moved.task_id,
      status: 'submitted',
      outcome: 'unable',
      submitted_at: moved.updated_at,
      payment_cents: payment,
    };
  }

  /**
   * A result or a "could not do it" report alike: only from a live assignment (accepted or in progress; 409
   * otherwise) before the deadline, under act's task lock; `work` records it, and the task counts one more
   * submission.
   */
  private submission(
    actor: WorkerActor,
    assignmentId: string,
    work: AssignmentWork,
    verb: 'submitted' | 'reported',
  ): Promise<AssignmentResponse> {
    return this.act(
      actor,
      assignmentId,
      (em, task, a, now) => {
        if (!SUBMITTABLE.includes(a.status)) {
          throw new ApiError('invalid_state', `The assignment is ${a.status}; it cannot be ${verb}.`, {
            current_status: a.status,
          });
        }
        beforeDeadline(task, a, now);
        return work(em, task, a, now);
      },
      { submitted: true },
      true,
    );
  }

  /** The worker's own uploads named in photo_urls, each through the location check of a proof photo. */
  private async urlPhotos(
    em: EntityManager,
    actor: WorkerActor,
    urls: string[],
    task: TaskRow,
    a: AssignmentRow,
    device: DeviceFix | null,
    now: Date,
  ): Promise<Photo[]> {
    const photos: Photo[] = [];
    if (urls.length === 0) return photos;
    for (const u of await this.uploads.ownedByUrls(em, actor.id, urls)) {
      photos.push(
        await this.verifier.fromUpload(em, u, this.uploads.url(u.storage_key), task, a, device, now),
      );
    }
    return photos;
  }

  /**
   * The photos of the answer_schema's photo fields: each URL must be one of the worker's uploads and a photo (400
   * answer_invalid naming the field), and passes the location check of any proof photo, recorded with its field.
   */
  private async fieldPhotos(
    em: EntityManager,
    actor: WorkerActor,
    task: TaskRow,
    a: AssignmentRow,
    answers: Record<string, unknown>,
    device: DeviceFix | null,
    now: Date,
  ): Promise<Photo[]> {
    if (!task.answer_schema) return [];
    const wanted = photoAnswers(answerSchemaModel(task.answer_schema), answers);
    if (wanted.length === 0) return [];
    const found = await this.uploads.lookupOwned(
      em,
      actor.id,
      wanted.map((w) => w.url),
    );
    const problems = wanted.flatMap((w, i) =>
      !found[i]
        ? [{ field: `result_data.${w.field}`, message: 'is not the URL of one of your uploads' }]
        : !found[i].content_type.startsWith('image/')
          ? [{ field: `result_data.${w.field}`, message: 'must be a photo (JPEG or PNG), not another file' }]
          : [],
    );
    if (problems.length > 0) {
      throw new ApiError('answer_invalid', `${problems[0].field} ${problems[0].message}`, {
        details: problems,
      });
    }
    const photos: Photo[] = [];
    for (const [i, w] of wanted.entries()) {
      const u = found[i]!;
      const photo = await this.verifier.fromUpload(
        em,
        u,
        this.uploads.url(u.storage_key),
        task,
        a,
        device,
        now,
      );
      photos.push({ ...photo, field: w.field });
    }
    return photos;
  }

  /** The worker's own assignment and its task, read without locks (for checks made before the transaction). */
  async findOwned(
    actor: WorkerActor,
    assignmentId: string,
  ): Promise<{ assignment: AssignmentRow; task: TaskRow }> {
    const assignment = await TaskRepository.assignment(this.ds.manager, assignmentId);
    if (!assignment || assignment.worker_id !== actor.id) {
      throw new ApiError('assignment_not_found', 'No such assignment.');
    }
    const task = (await TaskRepository.findById(this.ds.manager, assignment.task_id))!;
    return { assignment, task };
  }

  /**
   * The slot is offered to the next worker or reopens (or is refunded if the task takes no more workers); the
   * abandonment counts against the worker's reputation at once.
   */
  abandon(actor: WorkerActor, assignmentId: string): Promise<AssignmentResponse> {
    return this.act(actor, assignmentId, async (em, task, a, now) => {
      const moved = await this.moveWithEvent(
        em,
        a,
        ['accepted', 'in_progress'],
        'abandoned',
        now,
        { closed_at: now },
        'assignment.abandoned',
      );
      await this.reputation.recompute(em, a.worker_id, now);
      await this.dispatch.offerOpenSlots(em, task, now);
      return moved;
    });
  }

  /** Turning an offer down costs nothing; the slot goes to the next best online worker. */
  decline(actor: WorkerActor, assignmentId: string): Promise<AssignmentResponse> {
    return this.act(actor, assignmentId, async (em, task, a, now) => {
      const moved = await this.moveWithEvent(
        em,
        a,
        ['pending'],
        'declined',
        now,
        { closed_at: now, offer_ended_at: now },
        'assignment.declined',
      );
      countOffer('declined');
      await this.dispatch.offerOpenSlots(em, task, now);
      return moved;
    });
  }

  private async act(
    actor: WorkerActor,
    assignmentId: string,
    work: AssignmentWork,
    changes: TaskChanges = {},
    movesOnlyIt = false,
  ): Promise<AssignmentResponse> {
    // One transaction, since a slot freed once the task takes no more workers is refunded (settle). A worker's
    // request holds no idempotency claim (the Idempotency-Key header is the agents'), so no answer is stored with it.
    return inTransaction(this.ds, async (em) => {
      // Lock the assignment's task first, then read the task's assignments under that lock (their current state).
      const task = await TaskRepository.lockByAssignment(em, assignmentId);
      const assignments = task ? await TaskRepository.assignments(em, task.id) : [];
      const a = assignments.find((x) => x.id === assignmentId);
      if (!task || !a || a.worker_id !== actor.id) {
        throw new ApiError('assignment_not_found', 'No such assignment.');
      }
      const now = this.clock.now();
      const done = await work(em, task, a, now);
      const moved = 'moved' in done ? done.moved : done;
      // When the work moved only this assignment (start, submit), the task's assignments are those read above
      // with the moved row, so the reconciliation need not read them again; else (abandon, decline: dispatch may
      // offer the slot to someone) it reads them. Work that moved others too (agreement) hands them over.
      const current =
        'moved' in done && done.current
          ? done.current
          : movesOnlyIt
            ? assignments.map((x) => (x.id === moved.id ? moved : x))
            : undefined;
      await this.settlement.reconcileTask(em, task, now, changes, current);
      return {
        assignment_id: moved.id,
        task_id: moved.task_id,
        status: moved.status,
        updated_at: now.toISOString(),
      };
    });
  }

  /** The move (or 409, see TaskRepository.moveOrRefuse) with its assignment event; the moved row. */
  private async moveWithEvent(
    em: EntityManager,
    a: AssignmentRow,
    from: AssignmentStatus[],
    to: AssignmentStatus,
    now: Date,
    set: Record<string, unknown>,
    event: AssignmentEventName,
  ): Promise<AssignmentRow> {
    const moved = await TaskRepository.moveOrRefuse(em, a, from, to, now, set);
    await this.events.assignment(em, event, moved, now);
    return moved;
  }
}

/** What an action does under act's lock: the moved assignment, with the task's others when it moved them too. */
type AssignmentWork = (
  em: EntityManager,
  task: TaskRow,
  a: AssignmentRow,
  now: Date,
) => Promise<AssignmentRow | { moved: AssignmentRow; current?: AssignmentRow[] }>;

const SUBMITTABLE: AssignmentStatus[] = ['accepted', 'in_progress'];

function beforeDeadline(task: TaskRow, a: AssignmentRow, now: Date): void {
  if (now.getTime() >= task.deadline_at.getTime()) {
    throw new ApiError('invalid_state', 'The task deadline has passed.', {
      current_status: a.status,
      deadline_at: task.deadline_at.toISOString(),
    });
  }
}
