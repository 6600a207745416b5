import fc from 'fast-check';
import {
  ASSIGNMENT_STATUSES,
  AssignmentSlot,
  AssignmentStatus,
  countSlots,
  deriveTaskStatus,
  SlotSettlement,
} from './task-status';

const SETTLEMENT: Partial<Record<AssignmentStatus, SlotSettlement>> = {
  approved: 'released',
  rejected: 'refunded',
};
const a = (status: AssignmentStatus, settlement: SlotSettlement | null = SETTLEMENT[status] ?? null) => ({
  status,
  settlement,
});
const derive = (assignments: AssignmentSlot[], maxWorkers = 1, closedSlots = 0, cancelled = false) =>
  deriveTaskStatus({ cancelled, maxWorkers, closedSlots, assignments });

describe('deriveTaskStatus', () => {
  describe('one worker: exactly the spec table', () => {
    it.each<[string, AssignmentSlot[], number, string]>([
      ['new task', [], 0, 'pending'],
      ['an offer awaiting the worker', [a('pending')], 0, 'pending'],
      ['worker accepted', [a('accepted')], 0, 'assigned'],
      ['worker started', [a('in_progress')], 0, 'in_progress'],
      ['worker submitted', [a('submitted')], 0, 'submitted'],
      ['agent accepted the result', [a('approved')], 0, 'completed'],
      ['agent rejected the result', [a('rejected')], 0, 'failed'],
      ['worker abandoned: slot reopens', [a('abandoned')], 0, 'pending'],
      ['offer expired: slot reopens', [a('expired')], 0, 'pending'],
      ['expired at the deadline (refunded)', [a('expired', 'refunded')], 0, 'failed'],
      ['deadline with nobody: slot closed', [], 1, 'failed'],
      ['abandoned, then the slot closed at the deadline', [a('abandoned')], 1, 'failed'],
    ])('%s', (_name, assignments, closed, expected) => {
      expect(derive(assignments, 1, closed)).toBe(expected);
    });

    it('cancelled wins over everything', () => {
      expect(derive([a('cancelled', 'compensated')], 1, 0, true)).toBe('cancelled');
      expect(derive([], 1, 1, true)).toBe('cancelled');
    });
  });

  describe('several workers: the first matching rule wins', () => {
    it('submitted only when nobody is still working', () => {
      expect(derive([a('submitted')], 3)).toBe('submitted');
      expect(derive([a('submitted'), a('accepted')], 3)).toBe('assigned');
      expect(derive([a('submitted'), a('in_progress')], 3)).toBe('in_progress');
      expect(derive([a('submitted'), a('pending')], 3)).toBe('submitted');
    });

    it('in progress beats assigned', () => {
      expect(derive([a('accepted'), a('in_progress')], 3)).toBe('in_progress');
    });

    it('an open slot keeps the task from finishing', () => {
      expect(derive([a('approved')], 2)).toBe('pending');
      expect(derive([a('approved'), a('rejected')], 3)).toBe('pending');
      expect(derive([a('approved')], 2, 1)).toBe('completed');
    });

    it('mixed outcomes: completed with one approval, failed with none', () => {
      expect(derive([a('approved'), a('rejected'), a('expired', 'refunded')], 3)).toBe('completed');
      expect(derive([a('rejected'), a('expired', 'refunded')], 3, 1)).toBe('failed');
    });
  });

  describe('countSlots', () => {
    it('counts live, settled, closed and open slots', () => {
      expect(
        countSlots(5, 1, [a('accepted'), a('approved'), a('abandoned'), a('cancelled', 'compensated')]),
      ).toEqual({ live: 1, settled: 2, closed: 1, open: 1, approved: 1 });
    });

    it('refuses impossible accounting instead of guessing', () => {
      expect(() => countSlots(1, 0, [a('accepted'), a('submitted')])).toThrow(/slot accounting/);
      expect(() => countSlots(1, 1, [a('accepted')])).toThrow(/slot accounting/);
    });
  });

  it('property: a finished task (completed/failed) has no live or open slot; live work is never terminal', () => {
    const slot = fc.constantFrom(...ASSIGNMENT_STATUSES).map((s) => a(s));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), fc.array(slot, { maxLength: 10 }), (max, all) => {
        const assignments = all.slice(0, max);
        const used = assignments.filter((x) => x.settlement !== null || isLiveStatus(x.status)).length;
        const closed = max - used > 0 ? (max - used) % 2 : 0;
        const status = derive(assignments, max, closed);
        const counts = countSlots(max, closed, assignments);
        if (status === 'completed' || status === 'failed') {
          expect(counts.live + counts.open).toBe(0);
          expect(status === 'completed').toBe(counts.approved > 0);
        } else {
          expect(counts.live + counts.open).toBeGreaterThan(0);
        }
      }),
    );
  });
});

function isLiveStatus(s: AssignmentStatus): boolean {
  return ['pending', 'accepted', 'in_progress', 'submitted'].includes(s);
}
