import { describe, expect, it } from 'vitest';
import { formatDistance, labelled } from './format';

describe('format', () => {
  it('writes distances in the units of the language: 米 and 公里 in Chinese, m and km in English', () => {
    expect(formatDistance(42.4, 'en')).toBe('42 m');
    expect(formatDistance(42.4, 'zh-CN')).toBe('42 米');
    expect(formatDistance(1530, 'en')).toBe('1.5 km');
    expect(formatDistance(1530, 'zh-CN')).toBe('1.5 公里');
    expect(formatDistance(5000, 'zh-CN')).toBe('5 公里');
    expect(formatDistance(23_400, 'en')).toBe('23 km');
  });

  it('puts the colon of the language after a label', () => {
    expect(labelled('审核结果', 'zh-CN')).toBe('审核结果：');
    expect(labelled('Verdict', 'en')).toBe('Verdict: ');
  });
});
