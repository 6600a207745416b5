import { liveAssignmentCap } from './live-assignment-cap';

describe('live-assignment cap', () => {
  it('a worker below 3.5 may hold 1 unfinished assignment, otherwise 3', () => {
    expect(liveAssignmentCap(0)).toBe(1);
    expect(liveAssignmentCap(3.49)).toBe(1);
    expect(liveAssignmentCap(3.5)).toBe(3);
    expect(liveAssignmentCap(5)).toBe(3);
  });
});
