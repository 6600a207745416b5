import type { RejectionReason } from '../task/domain/task-policy';
import type { PushLocale } from './dtos/push-subscription.dto';
import type { LadderOffer } from './offer-ladder.rows';
import { FRAUD_CONFIRMED, type LadderNotice, type NotificationKind } from './worker-notifications.rows';

/**
 * What an offer's push carries, encrypted end to end to the device (the push service sees only ciphertext): enough
 * for the service worker to show the offer without a network round trip, and the page that opens it. The link is
 * a path: the service worker opens it on its own origin.
 */
export interface OfferPushPayload {
  type: 'offer';
  assignment_id: string;
  task_id: string;
  title: string;
  payment_cents: number;
  expires_at: string;
  url: string;
  locale: PushLocale;
}

export function offerPushPayload(offer: LadderOffer, locale: PushLocale): OfferPushPayload {
  return {
    type: 'offer',
    assignment_id: offer.id,
    task_id: offer.task_id,
    title: offer.title,
    payment_cents: offer.payout_cents,
    expires_at: offer.offer_expires_at.toISOString(),
    url: offerPath(offer.id),
    locale,
  };
}

/** The app's page of an offer (product-decisions §16), the same for Web Push and SMS. */
export function offerPath(assignmentId: string): string {
  return `/app/offers/${assignmentId}`;
}

/**
 * What a money notification's push carries (product-decisions §19): the words to show, in the device's language,
 * and the assignment's page in the app to open. The words are composed here so the service worker needs no
 * catalogue of kinds; the push service sees only ciphertext.
 */
export interface MoneyPushPayload {
  type: 'money';
  notification_id: string;
  kind: NotificationKind;
  assignment_id: string;
  task_id: string;
  amount_cents: number;
  heading: string;
  body: string;
  url: string;
  locale: PushLocale;
}

export function moneyPushPayload(n: LadderNotice, locale: PushLocale): MoneyPushPayload {
  const words = noticeWords(n, locale);
  return {
    type: 'money',
    notification_id: n.id,
    kind: n.kind,
    assignment_id: n.assignment_id,
    task_id: n.task_id,
    amount_cents: n.amount_cents,
    heading: words.heading,
    body: words.body,
    url: assignmentPath(n.assignment_id),
    locale,
  };
}

/** The app's page of one of the worker's assignments, where its money, review and dispute are shown. */
export function assignmentPath(assignmentId: string): string {
  return `/app/mine/${assignmentId}`;
}

const yuan = (cents: number) => `¥${(cents / 100).toFixed(2)}`;

/** The heading and body of a money notification, en or zh. The agent's words come after the title, quoted. */
function noticeWords(n: LadderNotice, locale: PushLocale): { heading: string; body: string } {
  const zh = locale === 'zh-CN';
  const why = reasonLine(n, zh);
  switch (n.kind) {
    case 'paid':
      return {
        heading: zh ? `已付款 · ${yuan(n.amount_cents)}` : `Paid · ${yuan(n.amount_cents)}`,
        body: n.title,
      };
    case 'unable_paid':
      return {
        heading: zh
          ? `“无法完成”已接受 · ${yuan(n.amount_cents)}`
          : `"Could not do it" accepted · ${yuan(n.amount_cents)}`,
        body: n.title,
      };
    case 'compensated':
      return {
        heading: zh
          ? `任务已取消，补偿 ${yuan(n.amount_cents)}`
          : `Task cancelled, ${yuan(n.amount_cents)} paid to you`,
        body: n.title,
      };
    case 'rejected':
      if (n.reason_code === FRAUD_CONFIRMED)
        return {
          heading: zh ? '照片经人工审核未通过' : 'A person reviewed your photos',
          body: zh
            ? `${n.title}\n运营人员确认照片不真实，结果未被接受。如有异议，可请人工复核。`
            : `${n.title}\nAn operator found them not genuine, so the result is rejected. You may ask a person to look again.`,
        };
      return {
        heading: zh ? '结果未被接受' : 'Your result was rejected',
        body: `${n.title}${why}${zh ? '\n可在 72 小时内申诉' : '\nYou may dispute it within 72 hours'}`,
      };
    case 'dispute_decided':
      return { heading: disputeHeading(n, zh), body: n.title };
  }
}

function disputeHeading(n: LadderNotice, zh: boolean): string {
  if (n.dispute_outcome === 'upheld')
    return zh ? '申诉已裁定：维持拒绝' : 'Dispute decided: the rejection stands';
  const paid = yuan(n.amount_cents);
  if (n.dispute_outcome === 'overturned')
    return zh ? `申诉已裁定：改判，付款 ${paid}` : `Dispute decided: overturned, ${paid} paid`;
  return zh ? `申诉已裁定：部分付款 ${paid}` : `Dispute decided: split, ${paid} paid`;
}

/** A rejection's reason code in the words the app gives it (web/app/messages), for a rejection without text. */
const REASON_WORDS: Record<RejectionReason, { en: string; zh: string }> = {
  wrong_location: { en: 'Wrong location', zh: '地点不对' },
  poor_quality: { en: 'Poor quality', zh: '质量不佳' },
  incomplete: { en: 'Incomplete', zh: '内容不完整' },
  not_as_described: { en: 'Not as described', zh: '与要求不符' },
  other: { en: 'Other reason', zh: '其他原因' },
};

/** The line of a rejection's reason: the agent's words, quoted, or else its code in words; none without either. */
function reasonLine(n: LadderNotice, zh: boolean): string {
  if (n.reason_text) return zh ? `\n理由：“${n.reason_text}”` : `\nReason: “${n.reason_text}”`;
  const code = n.reason_code;
  const words = code && Object.hasOwn(REASON_WORDS, code) ? REASON_WORDS[code as RejectionReason] : null;
  if (!words) return '';
  return zh ? `\n理由：${words.zh}` : `\nReason: ${words.en}`;
}
