import { agreeingToApprove, agreementKey, type AgreementCandidate, type ReviewPolicy } from './agreement';

const policy: ReviewPolicy = { type: 'agreement', fields: ['open', 'payment'], min_agreeing: 2 };
let n = 0;
const at = (s: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, s));
function sub(status: string, data: Record<string, unknown>, second: number): AgreementCandidate {
  return { id: `a${n++}`, status, submitted_at: at(second), result_data: data };
}
const ids = (xs: AgreementCandidate[]) => xs.map((x) => x.id);

describe('agreement review', () => {
  it('compares multi-selects as sets and ignores fields outside the policy', () => {
    expect(agreementKey(policy, { open: true, payment: ['b', 'a'], note: 'x' })).toBe(
      agreementKey(policy, { open: true, payment: ['a', 'b'], note: 'y' }),
    );
  });

  it('approves nothing before min_agreeing submissions agree', () => {
    expect(agreeingToApprove(policy, [sub('submitted', { open: true, payment: [] }, 1)])).toEqual([]);
    const differ = [
      sub('submitted', { open: true, payment: [] }, 1),
      sub('submitted', { open: false, payment: [] }, 2),
    ];
    expect(agreeingToApprove(policy, differ)).toEqual([]);
  });

  it('approves the submitted ones that agree with the consensus, not the others, whatever the list order', () => {
    const a = sub('submitted', { open: true, payment: ['cash'] }, 1);
    const b = sub('submitted', { open: false, payment: ['cash'] }, 2);
    const c = sub('submitted', { open: true, payment: ['cash'] }, 3);
    expect(ids(agreeingToApprove(policy, [a, b, c]))).toEqual([a.id, c.id]);
    expect(ids(agreeingToApprove(policy, [c, b, a]))).toEqual([a.id, c.id]);
  });

  it('the consensus is the first answer to reach min_agreeing; a later one that reaches it too waits', () => {
    const a1 = sub('approved', { open: true, payment: [] }, 1);
    const b1 = sub('submitted', { open: false, payment: [] }, 2);
    const a2 = sub('approved', { open: true, payment: [] }, 3);
    const b2 = sub('submitted', { open: false, payment: [] }, 4);
    const a3 = sub('submitted', { open: true, payment: [] }, 5);
    expect(ids(agreeingToApprove(policy, [a1, b1, a2, b2, a3]))).toEqual([a3.id]);
  });

  it('rejected submissions never count', () => {
    const r = sub('rejected', { open: true, payment: [] }, 1);
    const s = sub('submitted', { open: true, payment: [] }, 2);
    expect(agreeingToApprove(policy, [r, s])).toEqual([]);
  });
});
