/**
 * The skills a worker can declare and a task can require. One list for the whole service: worker profiles, task
 * creation and matching validate against it, so a skill a task asks for is always one a worker can have.
 */
export const WORKER_SKILLS = [
  'photography',
  'data_entry',
  'surveying',
  'translation',
  'quality_inspection',
  'delivery',
  'driving',
  'other',
] as const;
export type WorkerSkill = (typeof WORKER_SKILLS)[number];

/** At most this many skills on one profile. */
export const MAX_WORKER_SKILLS = 20;

/** Mainland China mobile number: 11 digits starting 13-19. */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;
