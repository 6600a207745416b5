import type { Schemas } from '../shared/api';

type Skill = NonNullable<Schemas['WorkerRegister']['skills']>[number];

/** The skills the API knows (WorkerRegister's enum); typed against it so a renamed skill fails the typecheck. */
export const SKILLS = [
  'photography',
  'data_entry',
  'surveying',
  'translation',
  'quality_inspection',
  'delivery',
  'driving',
  'other',
] as const satisfies readonly Skill[];
