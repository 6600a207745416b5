import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { Logger } from '../../common/logging/logger';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import type { OutboxEvent } from '../../events/event-catalog';
import { OutboxSubscribers } from '../../events/delivery/outbox-subscribers';
import { AssignmentService } from '../../task/services/assignment.service';
import { PhotoSubmissionService } from '../../task/services/photo-submission.service';
import { TaskAcceptService } from '../../task/services/task-accept.service';
import { TaskOffers } from '../../task/services/task-offers';
import { TaskRepository, type TaskRow } from '../../task/task.repository';
import { answerSchemaModel } from '../../task/domain/answer-schema';
import { UploadService } from '../../upload/services/upload.service';
import {
  type AssignmentState,
  type Behavior,
  EDITED_EXIF_SOFTWARE,
  nextStep,
  personaData,
  type Step,
  TELEPORT_DISTANCE_METERS,
  DISPUTE_AFTER_SECONDS,
  UNABLE_REPORT,
} from '../behaviors';
import { DisputesService } from '../../disputes/services/disputes.service';
import { TestClocks } from '../../task/test-clocks';

/** What the disputes_rejection persona says: it always thinks its work was right. */
const DISPUTE_STATEMENT = 'I did the task as the brief asked (simulated worker disputing the rejection).';
import { PositionTrail } from '../../matching/services/position-trail';
import { sandboxAnswers } from '../sandbox-answers';
import { pointAtDistance, sandboxPhoto, stockPicture } from '../sandbox-photo';
import type { SandboxActionRow, SandboxWorkerRow } from '../simulation.rows';
import { SimulationQueue } from './simulation-queue';

/**
 * A photo (or, for the wrong_answers persona, an answer) refused by the submission checks: the simulated worker
 * cannot do better, so it gives the work up.
 */
const PHOTO_REFUSALS = ['photo_gps_missing', 'photo_location_mismatch', 'invalid_photo', 'answer_invalid'];

/** The steps that send proof photos (a result, or a "could not do it" report), which PHOTO_REFUSALS may refuse. */
const SENDS_PHOTOS: readonly string[] = ['submit', 'unable'];

type Planned = AssignmentState & {
  id: string;
  task_id: string;
  worker_id: string;
  behavior: Behavior;
  deleted_at: Date | null;
  /** The task's test clock: its steps wait for the clock's advance instead of a pg-boss job. */
  test_clock_id: string | null;
};

type Target = Pick<Planned, 'id' | 'task_id' | 'worker_id' | 'test_clock_id'>;

/**
 * The simulated workers' minds. Dispatch offers a slot to a simulated worker like to anyone; the offer's
 * `assignment.offered` event (seen through OutboxSubscribers, in the publishing transaction) makes the simulator
 * plan the worker's answer. Each step is a `sandbox_actions` row (unique per assignment and step, so planned once)
 * and a pg-boss job at its due time. Performing a step calls the same services a real worker's request reaches
 * (accept, start, submit with a generated photo, abandon, decline, report "could not do it", dispute), with the worker as the actor, then plans the
 * next step from the assignment's new state. A step runs at most once in effect: the services move an assignment
 * only from the states it may leave, so a repeated job gets a 409, recorded as the step's outcome.
 */
@Injectable()
export class WorkerSimulator implements OnModuleInit {
  constructor(
    private readonly ds: DataSource,
    private readonly queue: SimulationQueue,
    private readonly subscribers: OutboxSubscribers,
    private readonly accepts: TaskAcceptService,
    private readonly assignments: AssignmentService,
    private readonly photos: PhotoSubmissionService,
    private readonly uploads: UploadService,
    private readonly offers: TaskOffers,
    private readonly disputes: DisputesService,
    private readonly clock: Clock,
    private readonly logger: Logger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    // Offers are planned where jobs run: a plan sends the step's job in the publishing transaction.
    if (this.config.runJobsInProcess) this.subscribers.register((em, events) => this.onPublished(em, events));
    this.queue.handle((id) => this.perform(id));
  }

  private async onPublished(em: EntityManager, events: readonly OutboxEvent[]): Promise<void> {
    for (const e of events) {
      if (e.name === 'assignment.offered' && e.worker_id) await this.plan(em, String(e.data.assignment_id));
      if (e.name === 'assignment.rejected' && e.worker_id)
        await this.planDispute(em, String(e.data.assignment_id));
    }
  }

  /** Plans a simulated worker's next step on the assignment (nothing for anyone else's). */
  async plan(em: EntityManager, assignmentId: string): Promise<SandboxActionRow | null> {
    const [a] = await sqlRows<Planned>(
      em,
      `SELECT a.id, a.task_id, a.worker_id, a.status, a.offered_at, a.accepted_at, a.started_at, sw.behavior,
              sw.deleted_at, t.test_clock_id
         FROM assignments a JOIN sandbox_workers sw ON sw.worker_id = a.worker_id JOIN tasks t ON t.id = a.task_id
        WHERE a.id = $1`,
      [assignmentId],
    );
    if (!a || a.deleted_at) return null;
    const next = nextStep(a.behavior, a);
    return next ? this.schedule(em, a, next.step, next.dueAt) : null;
  }

  /** The disputes_rejection persona disputes a rejection a few seconds after it (on the task's clock, if any). */
  private async planDispute(em: EntityManager, assignmentId: string): Promise<void> {
    const [a] = await sqlRows<Target>(
      em,
      `SELECT a.id, a.task_id, a.worker_id, t.test_clock_id
         FROM assignments a JOIN sandbox_workers sw ON sw.worker_id = a.worker_id JOIN tasks t ON t.id = a.task_id
        WHERE a.id = $1 AND sw.persona = 'disputes_rejection' AND sw.deleted_at IS NULL`,
      [assignmentId],
    );
    if (!a) return;
    const now = a.test_clock_id
      ? ((await TestClocks.timeOfTask(em, a.task_id)) ?? this.clock.now())
      : this.clock.now();
    await this.schedule(em, a, 'dispute', new Date(now.getTime() + DISPUTE_AFTER_SECONDS * 1000));
  }

  /** Plans the next steps of the simulated workers on a test clock's tasks (its advance calls this). */
  async planClock(clockId: string): Promise<void> {
    await inTransaction(this.ds, async (em) => {
      const open = await sqlRows<{ id: string }>(
        em,
        `SELECT a.id FROM assignments a JOIN tasks t ON t.id = a.task_id
           JOIN sandbox_workers sw ON sw.worker_id = a.worker_id
          WHERE t.test_clock_id = $1 AND a.status IN ('pending', 'accepted', 'in_progress') AND sw.deleted_at IS NULL`,
        [clockId],
      );
      for (const a of open) await this.plan(em, a.id);
    });
  }

  private async schedule(
    em: EntityManager,
    a: Target,
    step: Step,
    dueAt: Date,
  ): Promise<SandboxActionRow | null> {
    const [action] = await sqlRows<SandboxActionRow>(
      em,
      `INSERT INTO sandbox_actions (worker_id, task_id, assignment_id, step, due_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (assignment_id, step) DO NOTHING RETURNING *`,
      [a.worker_id, a.task_id, a.id, step, dueAt, this.clock.now()],
    );
    // A step on a test clock's task runs when the clock is advanced past it, never in real time.
    if (action && !a.test_clock_id) await this.queue.send(em, action.id, dueAt);
    return action ?? null;
  }

  /** Runs one planned step, records what the service answered, and plans what follows. */
  async perform(actionId: string): Promise<void> {
    const [action] = await sqlRows<
      SandboxActionRow &
        Pick<SandboxWorkerRow, 'behavior' | 'agent_id' | 'persona'> &
        Pick<Planned, 'test_clock_id'>
    >(
      this.ds,
      `SELECT sa.*, sw.behavior, sw.agent_id, sw.persona, t.test_clock_id FROM sandbox_actions sa
         JOIN sandbox_workers sw ON sw.worker_id = sa.worker_id JOIN tasks t ON t.id = sa.task_id
        WHERE sa.id = $1 AND sa.done_at IS NULL AND sw.deleted_at IS NULL`,
      [actionId],
    );
    if (!action) return;
    const actor: WorkerActor = { kind: 'worker', id: action.worker_id, scheme: 'jwt' };
    let outcome = 'ok';
    let detail: Record<string, unknown> | null = null;
    try {
      if (action.step === 'start' && action.persona === 'teleports') await this.teleport(action);
      await this.act(actor, action, action.behavior);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      outcome = err.code;
      detail = { message: err.message, ...err.extra };
    }
    await inTransaction(this.ds, async (em) => {
      await sqlRows(em, `UPDATE sandbox_actions SET done_at = $2, outcome = $3, detail = $4 WHERE id = $1`, [
        action.id,
        this.clock.now(),
        outcome,
        detail ? JSON.stringify(detail) : null,
      ]);
      if (SENDS_PHOTOS.includes(action.step) && PHOTO_REFUSALS.includes(outcome)) {
        const a = {
          id: action.assignment_id,
          task_id: action.task_id,
          worker_id: action.worker_id,
          test_clock_id: action.test_clock_id,
        };
        await this.schedule(em, a, 'abandon', this.clock.now());
      } else {
        await this.plan(em, action.assignment_id);
      }
    });
    this.logger.debug({ action: action.id, step: action.step, outcome }, 'simulated worker step');
    // A worker that finished or turned work down may take another of its agent's waiting tasks.
    if (action.step !== 'accept' && action.step !== 'start') {
      await this.offers.offerOpenSlotsOf(action.agent_id, action.test_clock_id);
    }
  }

  private async act(
    actor: WorkerActor,
    action: SandboxActionRow & Pick<SandboxWorkerRow, 'persona'>,
    b: Behavior,
  ): Promise<void> {
    switch (action.step) {
      case 'accept':
        await this.accepts.accept(actor, action.task_id);
        return;
      case 'decline':
        await this.assignments.decline(actor, action.assignment_id);
        return;
      case 'start':
        await this.assignments.start(actor, action.assignment_id);
        return;
      case 'abandon':
        await this.assignments.abandon(actor, action.assignment_id);
        return;
      case 'submit':
        await this.submit(actor, action, b);
        return;
      case 'unable':
        await this.reportUnable(actor, action, b);
        return;
      case 'dispute':
        await this.disputes.open(actor, action.assignment_id, { statement: DISPUTE_STATEMENT });
    }
  }

  /**
   * The `teleports` persona reports its position TELEPORT_DISTANCE_METERS from the task as it starts (through the
   * position trail, as the app's availability report would, without going on call), so its submission from the task
   * minutes later is impossible travel (product-decisions §18).
   */
  private async teleport(action: SandboxActionRow): Promise<void> {
    const task = await TaskRepository.findById(this.ds.manager, action.task_id);
    if (!task) return;
    const far = pointAtDistance(task, TELEPORT_DISTANCE_METERS);
    await PositionTrail.record(this.ds, {
      workerId: action.worker_id,
      latitude: far.latitude,
      longitude: far.longitude,
      accuracyM: 10,
      source: 'availability',
      at: this.clock.now(),
    });
  }

  private async submit(
    actor: WorkerActor,
    action: SandboxActionRow & Pick<SandboxWorkerRow, 'persona'>,
    b: Behavior,
  ): Promise<void> {
    const notes = 'Submitted by a simulated worker (Legwork sandbox).';
    const task = await TaskRepository.findById(this.ds.manager, action.task_id);
    if (!task) return;
    const data = await this.answersFor(actor, task, b);
    if (!b.photo) {
      await this.assignments.submit(actor, action.assignment_id, { result_data: data, worker_notes: notes });
      return;
    }
    // The cheating personas of product-decisions §18: a picture others sent too, or EXIF an editor saved.
    const photo = sandboxPhoto({
      at: pointAtDistance(task, b.photo.distance_m),
      exif: b.photo.exif,
      now: this.clock.now(),
      ...(action.persona === 'edited_exif' ? { software: EDITED_EXIF_SOFTWARE } : {}),
      ...(action.persona === 'reuses_photo' ? { pixels: await stockPicture() } : {}),
    });
    await this.uploads.withStaged(photo, 'sandbox-photo.jpg', (staged) =>
      this.photos.submit(actor, action.assignment_id, staged, {
        result_data: JSON.stringify(data),
        worker_notes: notes,
      }),
    );
  }

  /**
   * "Could not do it" (product-decisions §19) as a worker's app sends it: the photo of the closed shop (taken where
   * the behaviour's photo would be, so it passes the location check) uploaded through the ordinary upload path, then
   * the unable report naming it, through the same service as POST /v1/worker/assignments/{id}/unable.
   */
  private async reportUnable(actor: WorkerActor, action: SandboxActionRow, b: Behavior): Promise<void> {
    const task = await TaskRepository.findById(this.ds.manager, action.task_id);
    if (!task) return;
    const photoUrls: string[] = [];
    if (b.photo) {
      const bytes = sandboxPhoto({
        at: pointAtDistance(task, b.photo.distance_m),
        exif: b.photo.exif,
        now: this.clock.now(),
      });
      const [uploaded] = await this.uploads.withStaged(bytes, 'closed-shop.jpg', (staged) =>
        this.uploads.upload(actor, [staged], 'file'),
      );
      photoUrls.push(uploaded.url);
    }
    await this.assignments.unable(actor, action.assignment_id, { ...UNABLE_REPORT, photo_urls: photoUrls });
  }

  /**
   * The result_data: the behaviour's own data, or, on a task with an answer_schema and no data set by the agent,
   * answers made for the schema (product-decisions §17). Each photo field gets a generated photo uploaded through
   * the ordinary upload path, taken where the behaviour's photo would be (15 m away with EXIF GPS by default).
   */
  private async answersFor(actor: WorkerActor, task: TaskRow, b: Behavior): Promise<Record<string, unknown>> {
    if (!task.answer_schema || !personaData(b)) return b.data;
    const model = answerSchemaModel(task.answer_schema);
    const style = b.answers ?? 'plausible';
    const urls = new Map<string, string>();
    if (style === 'plausible') {
      for (const f of model.fields.filter((x) => x.kind === 'photo')) {
        const bytes = sandboxPhoto({
          at: pointAtDistance(task, b.photo?.distance_m ?? 15),
          exif: b.photo?.exif ?? 'present',
          now: this.clock.now(),
        });
        const [uploaded] = await this.uploads.withStaged(bytes, `${f.name}.jpg`, (staged) =>
          this.uploads.upload(actor, [staged], 'file'),
        );
        urls.set(f.name, uploaded.url);
      }
    }
    return sandboxAnswers(model, style, this.clock.now(), urls);
  }
}
