import { JournalRefs } from './journal-refs';

describe('JournalRefs', () => {
  const id = '5d2c1f0e-7a44-4a8e-9a57-0b6c3f1d2e10';

  it('keeps the stored formats: a changed format would let a posted event post again', () => {
    expect({
      taskHold: JournalRefs.taskHold(id),
      assignmentSettlement: JournalRefs.assignmentSettlement(id),
      openSlotRefund: JournalRefs.openSlotRefund(id, 3),
      payment: JournalRefs.payment('pay_abc'),
      adminCredit: JournalRefs.adminCredit(id, 'key-1'),
      refundToPayer: JournalRefs.refundToPayer('rfd_abc'),
      refundReversal: JournalRefs.refundReversal('rfd_abc'),
      withdrawalStart: JournalRefs.withdrawalStart('wd_abc'),
      withdrawalComplete: JournalRefs.withdrawalComplete('wd_abc'),
      withdrawalReturn: JournalRefs.withdrawalReturn('wd_abc'),
    }).toEqual({
      taskHold: `task:${id}:hold`,
      assignmentSettlement: `assignment:${id}:settle`,
      openSlotRefund: `task:${id}:slot-refund:3`,
      payment: 'payment:pay_abc',
      adminCredit: `admin-credit:${id}:key-1`,
      refundToPayer: 'refund:rfd_abc',
      refundReversal: 'refund:rfd_abc:reversal',
      withdrawalStart: 'withdrawal:wd_abc:start',
      withdrawalComplete: 'withdrawal:wd_abc:complete',
      withdrawalReturn: 'withdrawal:wd_abc:return',
    });
  });

  it('gives every event of one id its own reference', () => {
    const refs = [
      JournalRefs.taskHold(id),
      JournalRefs.assignmentSettlement(id),
      JournalRefs.openSlotRefund(id, 1),
      JournalRefs.openSlotRefund(id, 2),
      JournalRefs.payment(id),
      JournalRefs.adminCredit(id, id),
      JournalRefs.refundToPayer(id),
      JournalRefs.refundReversal(id),
      JournalRefs.withdrawalStart(id),
      JournalRefs.withdrawalComplete(id),
      JournalRefs.withdrawalReturn(id),
    ];
    expect(new Set(refs).size).toBe(refs.length);
  });

  it('numbers open slots from 1', () => {
    for (const n of [0, -1, 1.5, Number.NaN])
      expect(() => JournalRefs.openSlotRefund(id, n)).toThrow(/positive/);
  });
});
