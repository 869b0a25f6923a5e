import { parseTimestamp } from '@switchboard/contracts';
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';

/** A valid timestamp becomes its UTC ISO form; anything else stays as given and fails. */
export const Timestamp = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? (parseTimestamp(value)?.toISOString() ?? value) : value,
  );

/** A timestamp filter of a list (`created_after`...): RFC 3339 with a time zone. */
export const IsTimestamp = () =>
  ValidateBy({
    name: 'isTimestamp',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && parseTimestamp(value) !== undefined,
      defaultMessage: (args) =>
        `${args?.property ?? 'value'} must be an ISO 8601 timestamp with a time zone, such as 2030-01-01T00:00:00Z`,
    },
  });

/** A query parameter that may repeat (`tag=a&tag=b`): a single one arrives as a string, made a list. */
export const RepeatedQuery = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value));

/** A tag filter: `name` or `name:value`, with the tag charset. */
export const TAG_FILTER = /^[A-Za-z0-9_-]{1,32}(:[A-Za-z0-9_-]{1,64})?$/;
