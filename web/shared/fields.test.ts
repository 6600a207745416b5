import { describe, expect, it } from 'vitest';
import { toggled } from './fields';

/** The checkbox row's list arithmetic (shared/fields.tsx's Checks): each value once, in the order ticked. */
describe('toggled', () => {
  it('adds a value once, at the end, and takes it out', () => {
    expect(toggled(['a'], 'b', true)).toEqual(['a', 'b']);
    expect(toggled(['a', 'b'], 'a', true)).toEqual(['b', 'a']);
    expect(toggled(['a', 'b'], 'a', false)).toEqual(['b']);
    expect(toggled([], 'a', false)).toEqual([]);
  });
});
