import {
  PROOF_RISKS,
  PROOF_SIGNAL_CODES,
  REUSE_SCOPES,
  type ProofRiskLevel,
  type ProofSignalCodeName,
  type ReuseScopeName,
} from '../../events/event-data';

/**
 * Proof integrity (product-decisions §18), as pure rules: the signals a checked photo may carry and the risk they add
 * up to. A signal is a finding, never a verdict: nothing here rejects a submission; a `high` risk only holds it from
 * auto-approval until a person decides (the hold lives with the submission, not here).
 *
 * The code lists are declared in events/event-data.ts (the published schemas need them and events sits below task);
 * this file is where the rest of the code takes them from.
 */
export { PROOF_RISKS, PROOF_SIGNAL_CODES, REUSE_SCOPES };
export type ProofSignalCode = ProofSignalCodeName;
export type ProofRisk = ProofRiskLevel;
export type ReuseScope = ReuseScopeName;

/**
 * One finding about a photo. `detail` is words for a person and never names another agent, their task or their files.
 * The optional fields carry what the risk rule reads:
 * - `scope` (reused_photo): `own` when the earlier photo was the same worker's, `other` when another worker's;
 * - `distance_meters` (exif_device_disagree: EXIF GPS to the device fix; impossible_travel: from the previous
 *   known position), `speed_kmh` (impossible_travel).
 */
export interface ProofSignal {
  code: ProofSignalCode;
  detail: string;
  scope?: ReuseScope;
  distance_meters?: number;
  speed_kmh?: number;
}

/** EXIF GPS and the device fix further apart than this are high risk (product-decisions §18). */
export const HIGH_RISK_DISAGREE_METERS = 1000;

/**
 * Each code's risk, one row a code (a new code does not compile until someone decides its risk), as §18 maps them:
 * - high: another worker's photo reused, impossible travel, EXIF and device over 1 km apart;
 * - medium: edited EXIF, capture outside the window, the worker's own photo reused; EXIF and device apart by more
 *   than the signal's threshold (max(accuracy, 100 m)) but at most 1 km, which §18 does not list, is medium too;
 * - low: no camera metadata (browsers strip it), so it alone never raises the risk.
 * A reused_photo without a scope (whose photo it was is unknown) counts as another worker's: the cautious reading.
 */
export const SIGNAL_RISK: Readonly<Record<ProofSignalCode, (s: ProofSignal) => ProofRisk>> = {
  reused_photo: (s) => (s.scope === 'own' ? 'medium' : 'high'),
  impossible_travel: () => 'high',
  exif_device_disagree: (s) => ((s.distance_meters ?? 0) > HIGH_RISK_DISAGREE_METERS ? 'high' : 'medium'),
  exif_edited: () => 'medium',
  capture_outside_window: () => 'medium',
  no_camera_metadata: () => 'low',
};

const RANK: Readonly<Record<ProofRisk, number>> = { low: 0, medium: 1, high: 2 };

/** The risk of a photo: the highest of its signals' risks; low without any. */
export function riskOf(signals: readonly ProofSignal[]): ProofRisk {
  let risk: ProofRisk = 'low';
  for (const s of signals) {
    const r = SIGNAL_RISK[s.code](s);
    if (RANK[r] > RANK[risk]) risk = r;
  }
  return risk;
}

/** The higher of two risks (a submission's risk is the highest of its photos'). */
export function higherRisk(a: ProofRisk, b: ProofRisk): ProofRisk {
  return RANK[b] > RANK[a] ? b : a;
}
