import {
  createTaskRequestTask_typeValues as TYPES,
  taskRequirementsLocation_proofValues as PROOFS,
  workerRegisterSkillsValues as SKILLS,
} from '@legwork/sdk/types';
import type { Schemas } from '../shared/api';
import { yuanToCents } from '../shared/money';
import { parsePlace, type Place } from './maplink';

export type TaskType = (typeof TYPES)[number];
export type Proof = (typeof PROOFS)[number];
export type Skill = (typeof SKILLS)[number];

/**
 * The task form as typed: text where the person types (so a half-typed number stays on screen), the choices as the
 * API's values. One object, so the body, the quote it belongs to and the form's sections all read the same thing.
 */
export interface TaskDraft {
  title: string;
  description: string;
  taskType: TaskType;
  /** A pasted map link or "lat, lng"; read into latitude and longitude when it names a place. */
  link: string;
  latitude: string;
  longitude: string;
  address: string;
  /** Metres; empty leaves the API's default radius. */
  radius: string;
  skills: Skill[];
  proof: Proof;
  /** Yuan per worker, at most two decimals. */
  budget: string;
  workers: string;
  /** A datetime-local value, in the browser's time zone. */
  deadline: string;
  /** A sandbox test clock's id, or empty for real time. */
  clock: string;
  /** The questions of the answer_schema, in order; none: free-form result_data as always. */
  answers: AnswerFieldDraft[];
}

/** The field kinds the builder offers (product-decisions §17), each written as the schema's JSON below. */
export const BUILDER_KINDS = [
  'text',
  'choice',
  'multi_select',
  'number',
  'integer',
  'boolean',
  'date',
  'time',
  'date_time',
  'photo',
] as const;
export type BuilderKind = (typeof BUILDER_KINDS)[number];

/** One question as typed in the builder: its choices one a line, its limits as text (empty: none). */
export interface AnswerFieldDraft {
  name: string;
  title: string;
  kind: BuilderKind;
  required: boolean;
  /** choice and multi_select: one value a line. */
  options: string;
  minimum: string;
  maximum: string;
}

/** Whether a task's skill is one of the API's list (a task may name others; they are shown as they are). */
export function isSkill(skill: string): skill is Skill {
  return (SKILLS as readonly string[]).includes(skill);
}

/** A change to the draft: fields to replace, or a pasted link (read into the coordinates). */
export type DraftChange =
  | { type: 'set'; fields: Partial<TaskDraft> }
  | { type: 'link'; value: string }
  | { type: 'add_field' }
  | { type: 'set_field'; index: number; fields: Partial<AnswerFieldDraft> }
  | { type: 'remove_field'; index: number };

/** A new draft: a photo task, 5 km, photography, ¥50 for one worker, due a day after `now`. */
export function newDraft(now: Date): TaskDraft {
  return {
    title: '',
    description: '',
    taskType: 'photo',
    link: '',
    latitude: '',
    longitude: '',
    address: '',
    radius: '5000',
    skills: ['photography'],
    proof: 'photo_gps',
    budget: '50.00',
    workers: '1',
    deadline: localInput(new Date(now.getTime() + 24 * 3_600_000)),
    clock: '',
    answers: [],
  };
}

/** A new question: a required yes-or-no, named field_N after the first free number. */
export function newField(existing: readonly AnswerFieldDraft[]): AnswerFieldDraft {
  let n = existing.length + 1;
  while (existing.some((f) => f.name === `field_${n}`)) n++;
  return {
    name: `field_${n}`,
    title: '',
    kind: 'boolean',
    required: true,
    options: '',
    minimum: '',
    maximum: '',
  };
}

export function draftReducer(draft: TaskDraft, change: DraftChange): TaskDraft {
  switch (change.type) {
    case 'set':
      return { ...draft, ...change.fields };
    case 'link': {
      // A link that names no place leaves the coordinates as they were (the note says it could not be read).
      const place = linkPlace(change.value);
      return place
        ? {
            ...draft,
            link: change.value,
            latitude: String(place.latitude),
            longitude: String(place.longitude),
          }
        : { ...draft, link: change.value };
    }
    case 'add_field':
      return { ...draft, answers: [...draft.answers, newField(draft.answers)] };
    case 'set_field':
      return {
        ...draft,
        answers: draft.answers.map((f, i) => (i === change.index ? { ...f, ...change.fields } : f)),
      };
    case 'remove_field':
      return { ...draft, answers: draft.answers.filter((_, i) => i !== change.index) };
  }
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((v) => v.trim())
    .filter(Boolean);

/** A limit as typed: a number, or the text itself when it is not one (the API then names the path). */
const limit = (text: string): number | string => (Number.isFinite(Number(text)) ? Number(text) : text);

/**
 * The questions as the API's answer_schema (JSON Schema 2020-12, the §17 subset), or undefined without any. Written
 * as typed: a problem (a blank title, a choice without values) is the API's to name, by its schema path.
 */
export function answerSchema(fields: readonly AnswerFieldDraft[]): Schemas['AnswerSchema'] | undefined {
  if (fields.length === 0) return undefined;
  const properties: Record<string, Record<string, unknown>> = {};
  for (const f of fields) {
    const p: Record<string, unknown> = { title: f.title.trim() };
    switch (f.kind) {
      case 'text':
        p.type = 'string';
        break;
      case 'choice':
        Object.assign(p, { type: 'string', enum: lines(f.options) });
        break;
      case 'multi_select':
        Object.assign(p, { type: 'array', items: { type: 'string', enum: lines(f.options) } });
        break;
      case 'number':
      case 'integer':
        p.type = f.kind;
        if (f.minimum.trim()) p.minimum = limit(f.minimum.trim());
        if (f.maximum.trim()) p.maximum = limit(f.maximum.trim());
        break;
      case 'boolean':
        p.type = 'boolean';
        break;
      case 'date':
      case 'time':
      case 'photo':
        Object.assign(p, { type: 'string', format: f.kind });
        break;
      case 'date_time':
        Object.assign(p, { type: 'string', format: 'date-time' });
        break;
    }
    properties[f.name.trim()] = p;
  }
  const required = fields.filter((f) => f.required).map((f) => f.name.trim());
  return {
    type: 'object',
    properties: properties as Schemas['AnswerSchema']['properties'],
    ...(required.length ? { required } : {}),
  };
}

/** The place a pasted link names, or null (nothing pasted, or nothing readable). */
export function linkPlace(link: string): Place | null {
  return link.trim() ? parsePlace(link) : null;
}

/**
 * The request body for the draft, for both the quote and the creation. What does not parse is sent as it is (NaN
 * amounts, an unreadable deadline), so the API's validation answers in its own words, as for any client.
 */
export function draftBody(draft: TaskDraft): Schemas['CreateTaskRequest'] {
  const deadlineAt = new Date(draft.deadline);
  const address = draft.address.trim();
  const schema = answerSchema(draft.answers);
  return {
    title: draft.title.trim(),
    description: draft.description.trim(),
    task_type: draft.taskType,
    location: {
      latitude: Number(draft.latitude),
      longitude: Number(draft.longitude),
      ...(address ? { address } : {}),
      ...(draft.radius ? { max_distance_meters: Number(draft.radius) } : {}),
    },
    requirements: { skills: draft.skills, location_proof: draft.proof },
    budget_cents: yuanToCents(draft.budget),
    max_workers: Number(draft.workers),
    deadline_at: Number.isNaN(deadlineAt.getTime()) ? draft.deadline : deadlineAt.toISOString(),
    ...(draft.clock ? { test_clock: draft.clock } : {}),
    ...(schema ? { answer_schema: schema } : {}),
  };
}

/** A date as a datetime-local input's value, in the browser's time zone. */
export function localInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
