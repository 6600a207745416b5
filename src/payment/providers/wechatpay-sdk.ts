/**
 * wechatpay-axios-plugin (with axios), loaded on first use rather than at start-up: about 4.7 MiB of heap that a
 * process which has not talked to WeChat Pay yet need not carry (the API at rest, docs/scaling.md). The keys it is
 * given were checked when the configuration was loaded (payment-config.ts).
 */
export function wechatpaySdk(): typeof import('wechatpay-axios-plugin') {
  // require, not import(): jest runs the e2e suite as CommonJS without VM modules, where import() fails.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('wechatpay-axios-plugin') as typeof import('wechatpay-axios-plugin');
}
