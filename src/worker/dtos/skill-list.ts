import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsIn } from 'class-validator';
import { stacked } from '../../common/http/validators';
import { MAX_WORKER_SKILLS, WORKER_SKILLS } from '../worker-skills';

/**
 * A worker's skills, as sign-up and the profile take them, documented with their bounds: from the one list, each
 * once, at most MAX_WORKER_SKILLS. Optional; the field says whether null is allowed.
 */
export function WorkerSkillList(): PropertyDecorator {
  return stacked(
    ApiPropertyOptional({
      enum: WORKER_SKILLS,
      isArray: true,
      maxItems: MAX_WORKER_SKILLS,
      uniqueItems: true,
    }),
    IsArray(),
    ArrayMaxSize(MAX_WORKER_SKILLS),
    ArrayUnique(),
    IsIn(WORKER_SKILLS, {
      each: true,
      message: `each value in skills must be one of ${WORKER_SKILLS.join(', ')}`,
    }),
  );
}
