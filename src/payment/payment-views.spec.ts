import { maskAccount } from './payment-views';

describe('maskAccount', () => {
  it.each([
    ['worker@example.com', 'w***@example.com'],
    ['13800138000', '138****8000'],
    ['2088123456789012', '2088********9012'],
    ['li.si_alipay', 'li********ay'],
    ['abcd', '****'],
  ])('%s -> %s', (account, masked) => {
    expect(maskAccount(account)).toBe(masked);
  });

  it('never shows more than the ends of an account', () => {
    expect(maskAccount('someone-long@example.com')).not.toContain('someone');
  });
});
