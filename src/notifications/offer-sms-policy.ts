/**
 * When an offer also goes by SMS (product-decisions §16), in one place. The socket and Web Push reach the worker at
 * once; an offer still waiting for its answer this long after it was made is sent by SMS, which is what reaches a
 * phone in mainland China whatever its browser (Chrome's Web Push rides on FCM, blocked there).
 */
export const OFFER_SMS_DELAY_SECONDS = 30;
/** At most this many offer SMS reach one worker in any 24 hours. */
export const OFFER_SMS_DAILY_CAP = 10;
export const OFFER_SMS_WINDOW_MS = 24 * 3600 * 1000;
/** No offer SMS from 22:00 to 08:00 China time (UTC+8 all year: China keeps no daylight saving time). */
export const QUIET_FROM_HOUR = 22;
export const QUIET_UNTIL_HOUR = 8;
const CHINA_UTC_OFFSET_HOURS = 8;

/** Why an offer SMS was not sent, when it was not (recorded with the delivery). */
export type SmsSkipReason = 'turned_off' | 'quiet_hours' | 'daily_cap' | 'budget_spent';

/**
 * When the quiet hours that contain `at` end (the next 08:00 China time): a worker's money SMS due in them waits
 * until then (money news keeps; an offer would have lapsed, so its SMS is skipped instead).
 */
export function quietHoursEnd(at: Date): Date {
  const end = new Date(at.getTime());
  end.setUTCHours(QUIET_UNTIL_HOUR - CHINA_UTC_OFFSET_HOURS, 0, 0, 0);
  if (end.getTime() <= at.getTime()) end.setUTCDate(end.getUTCDate() + 1);
  return end;
}

export function isQuietHour(at: Date): boolean {
  const hour = (at.getUTCHours() + CHINA_UTC_OFFSET_HOURS) % 24;
  return hour >= QUIET_FROM_HOUR || hour < QUIET_UNTIL_HOUR;
}

/** The first reason not to send, in the order they are decided: the worker's wish, the hour, the cap. */
export function smsSkipReason(input: {
  enabled: boolean;
  at: Date;
  sentInWindow: number;
}): SmsSkipReason | null {
  if (!input.enabled) return 'turned_off';
  if (isQuietHour(input.at)) return 'quiet_hours';
  if (input.sentInWindow >= OFFER_SMS_DAILY_CAP) return 'daily_cap';
  return null;
}
