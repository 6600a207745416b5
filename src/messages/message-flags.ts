/** What a message may hold that operators look at: contact details that take the work off the platform. */
export type MessageFlag = 'phone_number' | 'wechat_id';

/**
 * A mainland mobile number (11 digits from 13-19), written with spaces, dashes or dots between digit groups, and with
 * or without +86: "138 0013 8000", "+86-138-0013-8000". Digits run on from either side are not one (an order
 * number holding 11 digits in its middle is not a phone number).
 */
const MOBILE = /(?<![0-9])(?:\+?86[\s.-]*)?1[3-9](?:[\s.-]*[0-9]){9}(?![0-9])/;

/**
 * A WeChat ID named as such: "微信", "weixin", "wechat", "vx", "wx" or "v信", then an optional separator, then an ID
 * (6 to 20 characters: a letter first, then letters, digits, `_` or `-`, WeChat's own rule), or a phone number
 * (handled by MOBILE).
 */
const WECHAT =
  /(?:微信|威信|v信|weixin|wechat|\bvx|\bwx)\s*(?:号|id|ID)?\s*[:：是为=]?\s*[a-zA-Z][-_a-zA-Z0-9]{5,19}(?![-_a-zA-Z0-9])/i;

/**
 * The flags of a message body, for the operators' list (never a refusal: the product decision is to flag, since a
 * worker may need to say "the shop's number on the sign is ..."). Full-width digits are read as digits.
 */
export function messageFlags(body: string): MessageFlag[] {
  const text = body.normalize('NFKC');
  const flags: MessageFlag[] = [];
  if (MOBILE.test(text)) flags.push('phone_number');
  if (WECHAT.test(text)) flags.push('wechat_id');
  return flags;
}
