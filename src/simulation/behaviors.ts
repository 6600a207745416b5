import { isDeepStrictEqual } from 'node:util';

/**
 * What a simulated worker does (product-decisions §12): how long it waits before each step, how the assignment ends, and the
 * photo it sends. Personas are named presets; explicit `behavior` fields override the persona's.
 */
export const PERSONAS = [
  'reliable',
  'slow',
  'abandons',
  'declines_offers',
  'photo_too_far',
  'no_exif',
  'wrong_answers',
  'teleports',
  'reuses_photo',
  'edited_exif',
  'disputes_rejection',
  'reports_unable',
] as const;
export type Persona = (typeof PERSONAS)[number];

/**
 * submit: accept, start, submit. abandon: accept, start, then abandon when it would have submitted. no_show: accept
 * and never come (the assignment expires at the deadline). decline: decline the offer. unable: accept, start, then
 * report "could not do it" when it would have submitted (product-decisions §19: the shop was closed, with the photo).
 */
export const OUTCOMES = ['submit', 'abandon', 'no_show', 'decline', 'unable'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** present: GPS and capture time; missing: no EXIF GPS at all; stale: GPS, but taken two days before submitting. */
export const EXIF_KINDS = ['present', 'missing', 'stale'] as const;
export type ExifKind = (typeof EXIF_KINDS)[number];

export interface PhotoBehavior {
  /** How far from the task the photo's EXIF GPS puts it, metres. */
  distance_m: number;
  exif: ExifKind;
}

export interface Behavior {
  /** Seconds from the offer to accepting it (or declining it). Offers lapse after 120 s. */
  accept_after_s: number;
  /** Seconds from accepting to starting. */
  start_after_s: number;
  /** Seconds from starting to submitting (or abandoning). */
  submit_after_s: number;
  outcome: Outcome;
  /** null submits without a photo. */
  photo: PhotoBehavior | null;
  /**
   * The result_data submitted. On a task with an answer_schema (product-decisions §17), the persona's own data means
   * "answer the schema": plausible values for every field (or, with answers `wrong`, values that break it); data the
   * agent set is sent as it is.
   */
  data: Record<string, unknown>;
  /** How a schema is answered when data is the persona's: plausible values, or wrong ones (refused). */
  answers?: AnswerStyle;
}

export const ANSWER_STYLES = ['plausible', 'wrong'] as const;
export type AnswerStyle = (typeof ANSWER_STYLES)[number];

/** Upper bounds of the behaviour fields (the DTO validates against them). */
export const BEHAVIOR_LIMITS = {
  maxDelaySeconds: 30 * 86_400,
  maxPhotoDistanceMeters: 100_000,
} as const;

const RELIABLE: Behavior = {
  accept_after_s: 1,
  start_after_s: 1,
  submit_after_s: 2,
  outcome: 'submit',
  photo: { distance_m: 15, exif: 'present' },
  data: { observed: true, note: 'Done as asked (simulated worker).' },
  answers: 'plausible',
};

export const PERSONA_BEHAVIORS: Readonly<Record<Persona, Behavior>> = {
  reliable: RELIABLE,
  // Answers late in the offer window and takes its time: half an hour's work.
  slow: { ...RELIABLE, accept_after_s: 90, start_after_s: 600, submit_after_s: 1800 },
  abandons: { ...RELIABLE, outcome: 'abandon' },
  declines_offers: { ...RELIABLE, outcome: 'decline' },
  // Sends a photo taken 500 m away: the 100 m check refuses it, and the worker gives the assignment up.
  photo_too_far: { ...RELIABLE, photo: { distance_m: 500, exif: 'present' } },
  // Sends a photo whose EXIF carries no GPS position: refused, and the worker gives the assignment up.
  no_exif: { ...RELIABLE, photo: { distance_m: 15, exif: 'missing' } },
  // Answers a task's answer_schema with values that break it: refused (answer_invalid), it gives the work up.
  wrong_answers: { ...RELIABLE, answers: 'wrong' },
  // Reports a position 1,000 km from the task when it starts, then submits from the task five minutes later: the
  // submission is flagged impossible_travel, high risk, and held for a person (product-decisions §18).
  teleports: { ...RELIABLE, submit_after_s: 300 },
  // Sends a stock picture every reuses_photo worker sends (another worker's photo, as far as the platform can tell):
  // flagged reused_photo, high risk when an earlier copy was another worker's, and held for a person (§18).
  reuses_photo: { ...RELIABLE },
  // Sends a photo whose EXIF says an editor saved it: flagged exif_edited, medium risk (§18).
  edited_exif: { ...RELIABLE },
  // Works like reliable, and disputes a rejection of its result DISPUTE_AFTER_SECONDS later (product-decisions §19).
  disputes_rejection: RELIABLE,
  // Accepts and starts like reliable, then reports "could not do it" (the shop was closed, with a photo of it taken
  // 15 m away) through the worker's unable route instead of submitting (product-decisions §19).
  reports_unable: { ...RELIABLE, outcome: 'unable' },
};

/** What the `reports_unable` persona (any behaviour with outcome `unable`) reports: the shop was closed. */
export const UNABLE_REPORT = {
  reason: 'closed',
  note: 'The shop was closed: shutters down and no opening hours posted (simulated worker).',
} as const;

/** The EXIF Software tag of the `edited_exif` persona's photos: an editor's name, as a re-saved photo carries. */
export const EDITED_EXIF_SOFTWARE = 'Adobe Photoshop 25.0 (Windows)';

/** How long the `disputes_rejection` persona takes to dispute a rejection, seconds. */
export const DISPUTE_AFTER_SECONDS = 5;

/** How far from the task the `teleports` persona reports itself when it starts, metres. */
export const TELEPORT_DISTANCE_METERS = 1_000_000;

/** Whether the data is a persona's own (no agent set it), so a schema task gets answers made for its schema. */
export function personaData(b: Behavior): boolean {
  // Deep equality, not JSON text: the behaviour comes back from a jsonb column, whose keys are in another order.
  return isDeepStrictEqual(b.data, RELIABLE.data);
}

/** The persona's behaviour (reliable when none) with the given fields over it. */
export function resolveBehavior(persona: Persona | null, override: Partial<Behavior> = {}): Behavior {
  const base = PERSONA_BEHAVIORS[persona ?? 'reliable'];
  const defined = Object.fromEntries(Object.entries(override).filter(([, v]) => v !== undefined));
  return { ...base, ...defined };
}

/**
 * A simulated worker's steps. `unable` is the "could not do it" report in place of `submit`; `dispute` is planned
 * only for the disputes_rejection persona, on a rejection (never by nextStep).
 */
export const STEPS = ['accept', 'decline', 'start', 'submit', 'abandon', 'unable', 'dispute'] as const;
export type Step = (typeof STEPS)[number];

/** What an assignment looks like to the simulator. */
export interface AssignmentState {
  status: string;
  offered_at: Date | null;
  accepted_at: Date | null;
  started_at: Date | null;
}

/**
 * The worker's next step on an assignment and when it is due, or null when it does nothing more (it has submitted,
 * it never shows up, or the assignment is over).
 */
export function nextStep(b: Behavior, a: AssignmentState): { step: Step; dueAt: Date } | null {
  const after = (from: Date | null, seconds: number) =>
    from ? new Date(from.getTime() + seconds * 1000) : null;
  let plan: { step: Step; dueAt: Date | null } | null = null;
  if (a.status === 'pending') {
    plan = {
      step: b.outcome === 'decline' ? 'decline' : 'accept',
      dueAt: after(a.offered_at, b.accept_after_s),
    };
  } else if (a.status === 'accepted' && b.outcome !== 'no_show') {
    plan = { step: 'start', dueAt: after(a.accepted_at, b.start_after_s) };
  } else if (a.status === 'in_progress') {
    plan = {
      step: b.outcome === 'abandon' || b.outcome === 'unable' ? b.outcome : 'submit',
      dueAt: after(a.started_at, b.submit_after_s),
    };
  }
  return plan?.dueAt ? { step: plan.step, dueAt: plan.dueAt } : null;
}
