import fc from 'fast-check';
import {
  higherRisk,
  PROOF_RISKS,
  PROOF_SIGNAL_CODES,
  ProofSignal,
  ProofSignalCode,
  riskOf,
  SIGNAL_RISK,
} from './proof-signals';

const s = (code: ProofSignalCode, extra: Partial<ProofSignal> = {}): ProofSignal => ({
  code,
  detail: code,
  ...extra,
});

describe('riskOf (product-decisions §18)', () => {
  it('no signal is low', () => {
    expect(riskOf([])).toBe('low');
  });

  it('high: another worker’s photo reused, impossible travel, EXIF and device over 1 km apart', () => {
    expect(riskOf([s('reused_photo', { scope: 'other' })])).toBe('high');
    expect(riskOf([s('impossible_travel', { distance_meters: 1_000_000, speed_kmh: 6000 })])).toBe('high');
    expect(riskOf([s('exif_device_disagree', { distance_meters: 1001 })])).toBe('high');
  });

  it('medium: edited EXIF, capture outside the window, the worker’s own photo reused, EXIF and device up to 1 km', () => {
    expect(riskOf([s('exif_edited')])).toBe('medium');
    expect(riskOf([s('capture_outside_window')])).toBe('medium');
    expect(riskOf([s('reused_photo', { scope: 'own' })])).toBe('medium');
    expect(riskOf([s('exif_device_disagree', { distance_meters: 1000 })])).toBe('medium');
    expect(riskOf([s('exif_device_disagree', { distance_meters: 150 })])).toBe('medium');
  });

  it('no_camera_metadata alone stays low, and never raises another signal’s risk', () => {
    expect(riskOf([s('no_camera_metadata')])).toBe('low');
    expect(riskOf([s('no_camera_metadata'), s('exif_edited')])).toBe('medium');
    expect(riskOf([s('no_camera_metadata'), s('reused_photo', { scope: 'other' })])).toBe('high');
  });

  it('a reuse of unknown origin counts as another worker’s (the cautious reading)', () => {
    expect(riskOf([s('reused_photo')])).toBe('high');
  });

  it('is the highest risk of its signals, whatever their order', () => {
    const signal = fc.record({
      code: fc.constantFrom(...PROOF_SIGNAL_CODES),
      detail: fc.string(),
      scope: fc.option(fc.constantFrom('own' as const, 'other' as const), { nil: undefined }),
      distance_meters: fc.option(fc.integer({ min: 0, max: 5000 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(signal, { maxLength: 8 }), (signals) => {
        const expected = signals.map((x) => SIGNAL_RISK[x.code](x)).reduce(higherRisk, 'low' as const);
        expect(riskOf(signals)).toBe(expected);
        expect(riskOf([...signals].reverse())).toBe(expected);
        expect(PROOF_RISKS).toContain(riskOf(signals));
      }),
    );
  });

  it('higherRisk orders low < medium < high', () => {
    expect(higherRisk('low', 'medium')).toBe('medium');
    expect(higherRisk('high', 'medium')).toBe('high');
    expect(higherRisk('low', 'low')).toBe('low');
  });
});
