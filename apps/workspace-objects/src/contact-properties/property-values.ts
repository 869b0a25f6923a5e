import { CONTACT_LIMITS, parseTimestamp } from '@switchboard/contracts';
import type { ContactPropertyType } from '@switchboard/contracts';

/** RFC 3339 with an explicit offset: a bare date or a local time is not a datetime. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * A value for a property of `type` as stored (datetimes in UTC to the second), or why it cannot
 * be one. Used for contact data and for properties' fallback values alike.
 */
export function propertyValue(
  type: ContactPropertyType,
  value: unknown,
): { value: unknown } | { problem: string } {
  switch (type) {
    case 'string':
      if (typeof value !== 'string') return { problem: 'must be a string' };
      if (value.length > CONTACT_LIMITS.dataStringLength)
        return { problem: `must have at most ${CONTACT_LIMITS.dataStringLength} characters` };
      return { value };
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
        ? { value }
        : { problem: 'must be a number' };
    case 'boolean':
      return typeof value === 'boolean' ? { value } : { problem: 'must be true or false' };
    case 'datetime': {
      // A real instant of years 0001-9999: Date.parse rolls 2024-02-30 and 24:00 forward.
      const at =
        typeof value === 'string' && RFC3339.test(value) ? parseTimestamp(value) : undefined;
      if (!at)
        return {
          problem: 'must be an RFC 3339 datetime with an offset, e.g. 2024-01-15T09:30:00Z',
        };
      const ms = at.getTime();
      return { value: new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z') };
    }
  }
}
