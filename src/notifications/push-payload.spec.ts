import { moneyPushPayload } from './push-payload';
import type { LadderNotice } from './worker-notifications.rows';

/** A rejection's push in each language: the agent's words quoted, a bare code in words, a confirmed fraud as such. */
describe('money push wording of a rejection', () => {
  const rejection = (over: Partial<LadderNotice>): LadderNotice => ({
    id: 'n1',
    event_id: 'e1',
    worker_id: 'w1',
    kind: 'rejected',
    assignment_id: 'a1',
    task_id: 't1',
    amount_cents: 0,
    reason_code: null,
    reason_text: null,
    dispute_outcome: null,
    created_at: new Date(0),
    read_at: null,
    title: '拍摄面包店门头',
    phone_number: '+8613800000000',
    money_sms_enabled: false,
    ...over,
  });

  it('quotes the agent’s words', () => {
    const n = rejection({ reason_code: 'wrong_location', reason_text: 'Not the shop' });
    expect(moneyPushPayload(n, 'zh-CN').body).toBe(
      '拍摄面包店门头\n理由：“Not the shop”\n可在 72 小时内申诉',
    );
    expect(moneyPushPayload(n, 'en').body).toBe(
      '拍摄面包店门头\nReason: “Not the shop”\nYou may dispute it within 72 hours',
    );
  });

  it('says a code without words in the worker’s language, never the code itself', () => {
    const n = rejection({ reason_code: 'poor_quality' });
    expect(moneyPushPayload(n, 'zh-CN').body).toBe('拍摄面包店门头\n理由：质量不佳\n可在 72 小时内申诉');
    expect(moneyPushPayload(n, 'en').body).toBe(
      '拍摄面包店门头\nReason: Poor quality\nYou may dispute it within 72 hours',
    );
    expect(moneyPushPayload(rejection({ reason_code: 'unknown_code' }), 'en').body).toBe(
      '拍摄面包店门头\nYou may dispute it within 72 hours',
    );
  });

  it('tells a confirmed fraud as an operator’s finding, with the way to ask again', () => {
    const n = rejection({ reason_code: 'confirmed_fraud' });
    const zh = moneyPushPayload(n, 'zh-CN');
    expect(zh.heading).toBe('照片经人工审核未通过');
    expect(zh.body).toContain('运营人员确认照片不真实');
    expect(zh.body).toContain('可请人工复核');
    const en = moneyPushPayload(n, 'en');
    expect(en.heading).toBe('A person reviewed your photos');
    expect(en.body).toContain('An operator found them not genuine');
    expect(en.body).not.toContain('confirmed_fraud');
  });
});
