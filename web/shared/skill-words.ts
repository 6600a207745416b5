import type { workerRegisterSkillsValues } from '@legwork/sdk/types';

type SkillWords = Record<`skill.${(typeof workerRegisterSkillsValues)[number]}`, string>;

/**
 * The API's skills in words, the same in both apps (spread into each app's catalogues). Typed from the API's list: a
 * skill added to it does not compile until it has words in both languages.
 */
export const SKILL_WORDS = {
  en: {
    'skill.photography': 'Photography',
    'skill.data_entry': 'Data entry',
    'skill.surveying': 'Surveying',
    'skill.translation': 'Translation',
    'skill.quality_inspection': 'Quality inspection',
    'skill.delivery': 'Delivery',
    'skill.driving': 'Driving',
    'skill.other': 'Other',
  } satisfies SkillWords,
  'zh-CN': {
    'skill.photography': '拍照',
    'skill.data_entry': '数据录入',
    'skill.surveying': '实地调查',
    'skill.translation': '翻译',
    'skill.quality_inspection': '质量检查',
    'skill.delivery': '配送',
    'skill.driving': '驾驶',
    'skill.other': '其他',
  } satisfies SkillWords,
};
