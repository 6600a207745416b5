import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';

/** A calendar quarter, `YYYY-Qn`, in China time (product-decisions §19: the quarterly worker-income report). */
export class WorkerIncomeQuery {
  @ApiProperty({
    example: '2026-Q3',
    pattern: '^[0-9]{4}-Q[1-4]$',
    description:
      'The quarter, `YYYY-Q1` to `YYYY-Q4`, bounded in Asia/Shanghai time (Q3 is 1 July 00:00 to 1 October 00:00 ' +
      'UTC+8). A quarter that has not begun is 400; the current one reports what has posted so far.',
  })
  @IsString()
  @Matches(/^[0-9]{4}-Q[1-4]$/, { message: 'quarter must be YYYY-Qn, for example 2026-Q3' })
  quarter: string;
}
