import { type AnswerField, type AnswerFieldKind, type AnswerSchemaModel } from '../task/domain/answer-schema';
import type { AnswerStyle } from './behaviors';

/**
 * What a simulated worker answers to a task's answer_schema (product-decisions §17): a plausible value for every
 * field, as a careful person would give (the first choice, a value inside the bounds, today's date), or, for the
 * `wrong_answers` persona, a value of the wrong kind for every field plus one the schema does not declare, which
 * the submission refuses (400 answer_invalid). Photo fields get the URLs the simulator uploaded for them.
 */
export function sandboxAnswers(
  model: AnswerSchemaModel,
  style: AnswerStyle,
  now: Date,
  photoUrls: ReadonlyMap<string, string>,
): Record<string, unknown> {
  const table = style === 'wrong' ? WRONG : PLAUSIBLE;
  const answers: Record<string, unknown> = Object.fromEntries(
    model.fields.map((f) => [f.name, table[f.kind](f, now, photoUrls.get(f.name) ?? '')]),
  );
  if (style === 'wrong') answers.simulated_extra = 'not in the schema';
  return answers;
}

type Make = (f: AnswerField, now: Date, photoUrl: string) => unknown;

const TEXT = 'Checked on site (simulated worker).';

function inBounds(f: AnswerField, integer: boolean): number {
  const low = f.minimum ?? (f.maximum !== undefined ? Math.min(0, f.maximum) : 0);
  const high = f.maximum ?? low + 10;
  const middle = low + (high - low) / 2;
  return integer ? Math.ceil(Math.max(low, Math.min(high, Math.round(middle)))) : middle;
}

const PLAUSIBLE: Record<AnswerFieldKind, Make> = {
  text: (f) => TEXT.slice(0, f.maxLength),
  choice: (f) => f.options![0],
  date: (_f, now) => now.toISOString().slice(0, 10),
  time: () => '09:00:00+08:00',
  date_time: (_f, now) => now.toISOString(),
  number: (f) => inBounds(f, false),
  integer: (f) => inBounds(f, true),
  boolean: () => true,
  multi_select: (f) => f.options!.slice(0, 1),
  photo: (_f, _now, url) => url,
};

const WRONG: Record<AnswerFieldKind, Make> = {
  text: () => 42,
  choice: () => 'not one of the choices',
  date: () => 'some day',
  time: () => 'soon',
  date_time: () => 'yesterday',
  number: () => 'many',
  integer: () => 1.5,
  boolean: () => 'yes',
  multi_select: () => 'all of them',
  photo: () => 'no photo',
};
