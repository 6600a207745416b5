import fc from 'fast-check';
import { ApiError } from '../../common/errors/api-error';
import { placePhoto, verificationOf } from './location-proof';
import { applyRule, judgeProof, PROOF_RULES, ProofCase, ProofFile, ProofRule } from './proof-rules';
import { TASK_TYPES, TaskType } from './task-policy';

const TASK = { latitude: 31.2304, longitude: 121.4737 };
const NOW = new Date('2030-01-01T12:00:00.000Z');

/** A photo as the location check leaves it: placed 20 m north of the task by its EXIF GPS. */
function checkedPhoto(): ProofFile {
  const gps = { latitude: TASK.latitude + 20 / 111_195, longitude: TASK.longitude };
  const placed = placePhoto({ gps, takenAt: NOW }, TASK, 'photo_gps', null, NOW);
  const window = { acceptedAt: new Date(NOW.getTime() - 600_000), submittedAt: NOW };
  return {
    verification: verificationOf(placed, 'a'.repeat(64), window, {
      count: 0,
      firstSubmittedAt: null,
      byOthers: 0,
    }),
  };
}
/** A PDF or video in photo_urls: attached unchecked. */
const UNCHECKED: ProofFile = { verification: null };
/** A photo stored before location checks were recorded. */
const LEGACY: ProofFile = {};

const proofOf = (type: TaskType, photos: readonly ProofFile[]): ProofCase => ({
  task: { task_type: type, answer_schema: null },
  submission: { result_data: { ok: true }, worker_notes: null },
  photos,
});
const codes = (proof: ProofCase) => judgeProof(proof).refusals.map((r) => r.code);

describe('PROOF_RULES', () => {
  it('has a rule for every task type and for nothing else', () => {
    expect(Object.keys(PROOF_RULES).sort()).toEqual([...TASK_TYPES].sort());
  });

  it('does not compile with a task type missing, or a type that does not exist (npm run typecheck)', () => {
    const { photo, verification, data_collection, delivery } = PROOF_RULES;
    // @ts-expect-error 'other' has no rule
    const missing: typeof PROOF_RULES = { photo, verification, data_collection, delivery };
    // @ts-expect-error 'survey' is not a task type
    const unknown: typeof PROOF_RULES = { ...PROOF_RULES, survey: { checks: [] } };
    expect([missing, unknown].map((t) => Object.keys(t).length)).toEqual([4, 6]);
  });
});

describe('judgeProof', () => {
  describe('photo: at least one checked photo (product-decisions §10)', () => {
    it.each<[string, ProofFile[]]>([
      ['no file', []],
      ['only a PDF', [UNCHECKED]],
      ['only a photo from before location checks', [LEGACY]],
    ])('refuses %s with 400 photo_required', (_name, photos) => {
      const [refusal, ...more] = judgeProof(proofOf('photo', photos)).refusals;
      expect(more).toEqual([]);
      expect(refusal).toBeInstanceOf(ApiError);
      expect({ code: refusal.code, status: refusal.status, extra: refusal.extra }).toEqual({
        code: 'photo_required',
        status: 400,
        extra: {},
      });
      expect(refusal.message).toBe(
        'A photo task needs at least one photo whose location was checked: use submit-with-photo, or attach an uploaded JPEG or PNG in photo_urls.',
      );
    });

    it('accepts a checked photo, wherever it stands among unchecked files', () => {
      expect(codes(proofOf('photo', [checkedPhoto()]))).toEqual([]);
      expect(codes(proofOf('photo', [UNCHECKED, LEGACY, checkedPhoto()]))).toEqual([]);
    });
  });

  it.each(TASK_TYPES.filter((t) => t !== 'photo'))('%s: asks for no photo', (type) => {
    expect(codes(proofOf(type, []))).toEqual([]);
    expect(codes(proofOf(type, [UNCHECKED]))).toEqual([]);
    expect(codes(proofOf(type, [checkedPhoto()]))).toEqual([]);
  });

  it('refuses a submission exactly when its type is photo and no attached file was checked', () => {
    const file = fc.constantFrom(UNCHECKED, LEGACY, checkedPhoto());
    fc.assert(
      fc.property(fc.constantFrom(...TASK_TYPES), fc.array(file, { maxLength: 6 }), (type, photos) => {
        const refused = type === 'photo' && !photos.some((p) => p.verification);
        expect(codes(proofOf(type, photos))).toEqual(refused ? ['photo_required'] : []);
      }),
    );
  });
});

describe('applyRule', () => {
  it('runs every check in order, so the first refusal is the one answered and the verdict lists them all', () => {
    const refuse = (field: string) => () => ApiError.field(field, 'is missing');
    const rule: ProofRule = { checks: [refuse('a'), () => null, refuse('b')] };
    const verdict = applyRule(rule, proofOf('other', []));
    expect(verdict.refusals.map((r) => r.message)).toEqual(['a: is missing', 'b: is missing']);
  });

  it('passes the submission, task and files to each check as the caller gave them', () => {
    const seen: ProofCase[] = [];
    const proof = proofOf('delivery', [checkedPhoto()]);
    applyRule({ checks: [(p) => (seen.push(p), null)] }, proof);
    expect(seen).toEqual([proof]);
  });
});
