import { messageFlags } from './message-flags';

describe('messageFlags', () => {
  it.each([
    ['call me on 13800138000', ['phone_number']],
    ['我的电话 138 0013 8000', ['phone_number']],
    ['+86-138-0013-8000 any time', ['phone_number']],
    ['full width １３８００１３８０００', ['phone_number']],
    ['加我微信 zhang_san88', ['wechat_id']],
    ['WeChat: abc123xyz', ['wechat_id']],
    ['vx：Li-Lei_2024 please', ['wechat_id']],
    ['微信号13800138000', ['phone_number']],
  ])('flags %j', (body, flags) => {
    expect(messageFlags(body)).toEqual(flags);
  });

  it.each([
    'The shop was closed at 14:30, sign says 9:00-18:00.',
    'Order 2024113800138000123 was on the receipt',
    'Is the entrance on the north side?',
    'wx is short for nothing here',
    'price 138.00 yuan',
  ])('does not flag %j', (body) => {
    expect(messageFlags(body)).toEqual([]);
  });
});
