import { ApiError } from './errors/api-error';
import { dayRange, instantRange, parseIsoInstant } from './dates';

describe('ISO 8601 query dates', () => {
  it.each([
    ['2024-02-29', '2024-02-29T00:00:00.000Z', true],
    ['2024-03-01T10:00:00Z', '2024-03-01T10:00:00.000Z', false],
    ['2024-03-01T10:00', '2024-03-01T10:00:00.000Z', false],
    ['2024-03-01T18:00:00+08:00', '2024-03-01T10:00:00.000Z', false],
    ['2024-03-01T18:00:00+0800', '2024-03-01T10:00:00.000Z', false],
    ['2024-03-01T10:00:00.123456Z', '2024-03-01T10:00:00.123Z', false],
  ])('reads %s as %s', (input, iso, dateOnly) => {
    expect(parseIsoInstant(input)).toEqual({ at: new Date(iso), dateOnly });
  });

  it.each([
    '2023-02-29',
    '2024-02-30',
    '2024-04-31',
    '2024-13-01',
    '2024-01-01T24:00:00Z',
    '2024-01-01T10:60:00Z',
    '2024-W01-1',
    '2024-001',
    '20240101',
    'yesterday',
    '',
    ' 2024-01-01',
  ])('refuses %j', (input) => {
    expect(parseIsoInstant(input)).toBeNull();
  });

  it('a bare end date includes its whole UTC day; an end date-time includes itself', () => {
    expect(instantRange('2024-01-01', '2024-01-02')).toEqual({
      from: new Date('2024-01-01T00:00:00Z'),
      to: new Date('2024-01-03T00:00:00Z'),
    });
    expect(instantRange(undefined, '2024-01-02T10:00:00Z')).toEqual({
      from: null,
      to: new Date('2024-01-02T10:00:00.001Z'),
    });
    expect(instantRange()).toEqual({ from: null, to: null });
  });

  it('start after end is a validation error on start_date', () => {
    const err = (() => {
      try {
        instantRange('2024-01-02', '2024-01-01T23:59:59Z');
      } catch (e) {
        return e as ApiError;
      }
    })();
    expect(err?.code).toBe('validation_error');
    expect(err?.extra).toEqual({ details: [{ field: 'start_date', message: 'must not be after end_date' }] });
  });

  it('day ranges count UTC days, both ends included, up to a maximum', () => {
    expect(dayRange('2024-01-01', '2024-12-31', 366)).toMatchObject({
      firstDay: '2024-01-01',
      lastDay: '2024-12-31',
      days: 366,
    });
    // Date-times count as their UTC day: 23:00 at -02:00 and 07:00 at +08:00 are both on 2 March UTC.
    expect(dayRange('2024-03-01T23:00:00-02:00', '2024-03-03T07:00:00+08:00', 366)).toMatchObject({
      firstDay: '2024-03-02',
      lastDay: '2024-03-02',
      days: 1,
      from: new Date('2024-03-02T00:00:00Z'),
      to: new Date('2024-03-03T00:00:00Z'),
    });
    expect(() => dayRange('2023-01-01', '2024-01-01', 365)).toThrow(ApiError);
    expect(dayRange('2024-05-05', '2024-05-05', 1).days).toBe(1);
  });
});
