import { describe, expect, it } from 'vitest';
import {
  answerSchema,
  draftBody,
  draftReducer,
  isSkill,
  localInput,
  newDraft,
  type TaskDraft,
} from './task-draft';

/**
 * The task form's draft (web/console/task-draft.ts): the body it sends for a quote and a creation, and the changes
 * its sections make. What the form shows is tested in a real browser (test/browser/console-flow.e2e-spec.ts).
 */
const now = new Date(2026, 0, 15, 9, 30);
const filled: TaskDraft = {
  ...newDraft(now),
  title: '  Shop front  ',
  description: ' One photo. ',
  latitude: '31.2304',
  longitude: '121.4737',
};

describe('task draft', () => {
  it('starts as a photo task for one worker at ¥50, due a day later, 5 km around', () => {
    expect(newDraft(now)).toMatchObject({
      taskType: 'photo',
      skills: ['photography'],
      proof: 'photo_gps',
      budget: '50.00',
      workers: '1',
      radius: '5000',
      deadline: localInput(new Date(2026, 0, 16, 9, 30)),
      clock: '',
    });
  });

  it('becomes the API body: trimmed text, numbers, cents, an ISO deadline, optional parts left out', () => {
    expect(draftBody(filled)).toEqual({
      title: 'Shop front',
      description: 'One photo.',
      task_type: 'photo',
      location: { latitude: 31.2304, longitude: 121.4737, max_distance_meters: 5000 },
      requirements: { skills: ['photography'], location_proof: 'photo_gps' },
      budget_cents: 5000,
      max_workers: 1,
      deadline_at: new Date(2026, 0, 16, 9, 30).toISOString(),
    });
    const more = draftBody({ ...filled, address: ' 1 Nanjing Rd ', radius: '', clock: 'clk_1' });
    expect(more.location).toEqual({ latitude: 31.2304, longitude: 121.4737, address: '1 Nanjing Rd' });
    expect(more.test_clock).toBe('clk_1');
  });

  it('sends what does not parse as it is, for the API to refuse in its own words', () => {
    const body = draftBody({ ...filled, budget: '12.345', deadline: 'soon' });
    expect(body.budget_cents).toBeNaN();
    expect(body.deadline_at).toBe('soon');
  });

  it('reads a pasted link into the coordinates, and keeps them when the link names no place', () => {
    const read = draftReducer(filled, { type: 'link', value: '22.5431, 114.0579' });
    expect(read).toMatchObject({ link: '22.5431, 114.0579', latitude: '22.5431', longitude: '114.0579' });
    const unread = draftReducer(read, { type: 'link', value: 'https://example.com/nowhere' });
    expect(unread).toMatchObject({ link: 'https://example.com/nowhere', latitude: '22.5431' });
  });

  it('replaces fields, and tells the API skills from others', () => {
    expect(draftReducer(filled, { type: 'set', fields: { title: 'x', skills: [] } })).toMatchObject({
      title: 'x',
      skills: [],
      latitude: '31.2304',
    });
    expect([isSkill('delivery'), isSkill('juggling')]).toEqual([true, false]);
  });

  it('builds the answer_schema from the questions: added, typed, required or not, removed', () => {
    expect(draftBody(filled).answer_schema).toBeUndefined();
    let d = draftReducer(filled, { type: 'add_field' });
    d = draftReducer(d, { type: 'add_field' });
    d = draftReducer(d, { type: 'add_field' });
    d = draftReducer(d, { type: 'add_field' });
    expect(d.answers.map((f) => f.name)).toEqual(['field_1', 'field_2', 'field_3', 'field_4']);
    d = draftReducer(d, { type: 'set_field', index: 0, fields: { name: 'open', title: ' Open? ' } });
    d = draftReducer(d, {
      type: 'set_field',
      index: 1,
      fields: { name: 'kind', title: 'Kind', kind: 'choice', options: 'bakery\n cafe \n\n' },
    });
    d = draftReducer(d, {
      type: 'set_field',
      index: 2,
      fields: { name: 'queue', title: 'Queue', kind: 'integer', required: false, minimum: '0', maximum: '' },
    });
    d = draftReducer(d, {
      type: 'set_field',
      index: 3,
      fields: { name: 'front', title: 'Front', kind: 'photo' },
    });
    d = draftReducer(d, { type: 'add_field' });
    d = draftReducer(d, {
      type: 'set_field',
      index: 4,
      fields: { kind: 'multi_select', title: 'Pay', options: 'cash\nwechat' },
    });
    expect(draftBody(d).answer_schema).toEqual({
      type: 'object',
      properties: {
        open: { type: 'boolean', title: 'Open?' },
        kind: { type: 'string', enum: ['bakery', 'cafe'], title: 'Kind' },
        queue: { type: 'integer', minimum: 0, title: 'Queue' },
        front: { type: 'string', format: 'photo', title: 'Front' },
        field_5: { type: 'array', items: { type: 'string', enum: ['cash', 'wechat'] }, title: 'Pay' },
      },
      required: ['open', 'kind', 'front', 'field_5'],
    });
    d = draftReducer(d, { type: 'remove_field', index: 4 });
    expect(Object.keys(answerSchema(d.answers)!.properties)).toEqual(['open', 'kind', 'queue', 'front']);
    expect(answerSchema([{ ...d.answers[2], kind: 'date_time', required: false }])).toEqual({
      type: 'object',
      properties: { queue: { type: 'string', format: 'date-time', title: 'Queue' } },
    });
  });
});
