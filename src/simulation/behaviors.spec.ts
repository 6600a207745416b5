import { ASSIGNMENT_STATUSES } from '../task/domain/task-status';
import { nextStep, PERSONA_BEHAVIORS, resolveBehavior } from './behaviors';

describe('simulated worker behaviours', () => {
  const t0 = new Date('2030-01-01T00:00:00Z');
  const at = (s: number) => new Date(t0.getTime() + s * 1000);
  const state = (status: string) => ({ status, offered_at: t0, accepted_at: t0, started_at: t0 });

  it('resolves a persona with explicit fields over it; no persona is reliable', () => {
    expect(resolveBehavior(null)).toEqual(PERSONA_BEHAVIORS.reliable);
    expect(resolveBehavior('slow', { outcome: 'no_show', photo: null, accept_after_s: undefined })).toEqual({
      ...PERSONA_BEHAVIORS.slow,
      outcome: 'no_show',
      photo: null,
    });
  });

  it('plans each outcome step by step from the assignment timestamps', () => {
    const b = { ...PERSONA_BEHAVIORS.reliable, accept_after_s: 5, start_after_s: 7, submit_after_s: 11 };
    expect(nextStep(b, state('pending'))).toEqual({ step: 'accept', dueAt: at(5) });
    expect(nextStep(b, state('accepted'))).toEqual({ step: 'start', dueAt: at(7) });
    expect(nextStep(b, state('in_progress'))).toEqual({ step: 'submit', dueAt: at(11) });
    expect(nextStep({ ...b, outcome: 'decline' }, state('pending'))).toEqual({
      step: 'decline',
      dueAt: at(5),
    });
    expect(nextStep({ ...b, outcome: 'abandon' }, state('in_progress'))).toEqual({
      step: 'abandon',
      dueAt: at(11),
    });
    // "Could not do it" (reports_unable) takes the place of submitting, at the same moment.
    expect(
      nextStep({ ...PERSONA_BEHAVIORS.reports_unable, submit_after_s: 11 }, state('in_progress')),
    ).toEqual({
      step: 'unable',
      dueAt: at(11),
    });
    expect(nextStep({ ...b, outcome: 'no_show' }, state('pending'))).toEqual({
      step: 'accept',
      dueAt: at(5),
    });
    expect(nextStep({ ...b, outcome: 'no_show' }, state('accepted'))).toBeNull();
    // Every status from submitted on: the simulated worker has nothing left to do.
    const acting: readonly string[] = ['pending', 'accepted', 'in_progress'];
    const done = ASSIGNMENT_STATUSES.filter((s) => !acting.includes(s));
    expect(done).toHaveLength(7);
    for (const status of done) expect(nextStep(b, state(status))).toBeNull();
  });

  it('every persona keeps its answer inside the 120 s offer window', () => {
    for (const b of Object.values(PERSONA_BEHAVIORS)) expect(b.accept_after_s).toBeLessThan(120);
  });
});
