import type { SmsTemplate } from '../config/notification-config';

/**
 * The SMS the service sends, one shape per template. Mainland SMS providers send templates registered in advance
 * with parameters rather than free text (Aliyun's TemplateCode and TemplateParam), so a message carries both: the
 * template and its parameters for those providers, and the whole text for the sandbox outbox and any free-text one.
 */
export interface SmsMessages {
  verification_code: { code: string; purpose: string; ttl_minutes: number };
  /** An offer waiting for its answer: the pay, shown as yuan, and the offer (assignment) it links to. */
  offer: { amount: string; offer_id: string; link: string };
  /** News about the worker's money on one assignment (product-decisions §19): the link to its page. */
  money: { assignment_id: string; link: string };
}

export type SmsMessage = {
  [T in SmsTemplate]: { template: T; params: SmsMessages[T]; text: string };
}[SmsTemplate];

export function verificationMessage(code: string, purpose: string, ttlMinutes: number): SmsMessage {
  return {
    template: 'verification_code',
    params: { code, purpose, ttl_minutes: ttlMinutes },
    text: `【Legwork】验证码 ${code}，${ttlMinutes} 分钟内有效，请勿告诉他人。Your verification code is ${code}; it expires in ${ttlMinutes} minutes. Never share it.`,
  };
}

/**
 * An offer's link (product-decisions §16): the app's page of the offer, with no credential in it. A signed-out
 * phone signs in first and then lands on the offer. No task title: an SMS goes through the carrier in clear, and an
 * agent's words in it would let anyone posting a task write to workers' phones.
 */
export function offerMessage(link: string, assignmentId: string, paymentCents: number): SmsMessage {
  const amount = (paymentCents / 100).toFixed(2);
  return {
    template: 'offer',
    params: { amount, offer_id: assignmentId, link },
    text: `【Legwork】新任务邀请，报酬 ¥${amount}，请尽快查看并接单：${link} A task is offered to you (¥${amount}): ${link}`,
  };
}

/**
 * A worker's money notification (paid, rejected, a dispute decided): only that there is news and where to read it.
 * No amount, no title, no reason: an SMS crosses the carrier in clear, and the agent's words must not reach phones.
 */
export function moneyMessage(link: string, assignmentId: string): SmsMessage {
  return {
    template: 'money',
    params: { assignment_id: assignmentId, link },
    text: `【Legwork】你的任务款项有新消息，请在 App 查看：${link} News about your pay on a task: ${link}`,
  };
}

/** 138****0000: enough to correlate log lines, not enough to identify the person. */
export function maskPhone(phone: string): string {
  return `${phone.slice(0, 3)}****${phone.slice(-4)}`;
}
