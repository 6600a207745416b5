import { ApiProperty } from '@nestjs/swagger';

/**
 * The `next_cursor` of a cursor-paged list (`data`, `has_more`, `next_cursor`): what to pass as `starting_after` for
 * the next page, null on the last one. `format` says what the cursor is where it is an id of a known kind.
 */
export const NextCursor = (doc: { format?: 'uuid'; example?: null } = {}): PropertyDecorator =>
  ApiProperty({
    type: String,
    ...doc,
    nullable: true,
    description: 'Pass as starting_after for the next page; null on the last page.',
  });
