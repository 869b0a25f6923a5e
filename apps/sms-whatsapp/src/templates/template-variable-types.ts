/**
 * The typed slots of SMS templates. Each type accepts one kind of value and turns it into the
 * text that goes into the message, or says why it cannot: a template send with a malformed value
 * is refused (422) rather than sent with whatever was given.
 */

export type VariableCheck = { ok: true; text: string } | { ok: false; message: string };

export interface VariableType {
  /** The SDK's `TemplateVariable.type`. */
  name: string;
  check(value: unknown): VariableCheck;
}

const accept = (text: string): VariableCheck => ({ ok: true, text });
const refuse = (message: string): VariableCheck => ({ ok: false, message });

/** A one-time code: 4 to 10 digits or uppercase letters, as a string (leading zeros matter). */
export const codeType: VariableType = {
  name: 'code',
  check: (value) =>
    typeof value === 'string' && /^[0-9A-Z]{4,10}$/.test(value)
      ? accept(value)
      : refuse('must be a string of 4 to 10 digits or uppercase letters'),
};

/** A whole number within bounds, given as a number or a string of digits. */
export function integerType(min: number, max: number): VariableType {
  return {
    name: 'integer',
    check(value) {
      const number =
        typeof value === 'number'
          ? value
          : typeof value === 'string' && /^\d{1,9}$/.test(value)
            ? Number(value)
            : NaN;
      return Number.isInteger(number) && number >= min && number <= max
        ? accept(String(number))
        : refuse(`must be a whole number from ${min} to ${max}`);
    },
  };
}

/** A non-negative amount with at most two decimals, as a number or a decimal string. */
export const amountType: VariableType = {
  name: 'amount',
  check(value) {
    const text =
      typeof value === 'number' && Number.isFinite(value) ? String(value) : (value as string);
    if (typeof text !== 'string' || !/^\d{1,12}(\.\d{1,2})?$/.test(text))
      return refuse('must be a non-negative amount with at most two decimals, such as 12.50');
    const [units, cents = ''] = text.split('.');
    return accept(cents ? `${units}.${cents.padEnd(2, '0')}` : units);
  },
};

/** An ISO 4217 currency code. */
export const currencyType: VariableType = {
  name: 'currency',
  check: (value) =>
    typeof value === 'string' && /^[A-Z]{3}$/.test(value)
      ? accept(value)
      : refuse('must be an ISO 4217 currency code of three uppercase letters, such as EUR'),
};

/** A calendar day, `YYYY-MM-DD`, that exists. */
export const dateType: VariableType = {
  name: 'date',
  check(value) {
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
      const day = new Date(`${value}T00:00:00Z`);
      if (!Number.isNaN(day.getTime()) && day.toISOString().startsWith(value)) return accept(value);
    }
    return refuse('must be a calendar day as YYYY-MM-DD');
  },
};

/** A time of day on the 24-hour clock, `HH:MM`. */
export const timeType: VariableType = {
  name: 'time',
  check: (value) =>
    typeof value === 'string' && /^([01]\d|2[0-3]):[0-5]\d$/.test(value)
      ? accept(value)
      : refuse('must be a time of day as HH:MM (24-hour clock)'),
};

/** No line breaks or control characters, no template braces: a value stays one inline fragment. */
const INLINE_TEXT = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}{}]+$/u;

/** Inline text of bounded length (a brand, a person's name, a short message). */
export function textType(name: 'name' | 'short_text', maxLength: number): VariableType {
  return {
    name,
    check(value) {
      if (typeof value !== 'string') return refuse('must be a string');
      const trimmed = value.trim();
      const length = [...trimmed].length;
      if (length === 0 || length > maxLength || !INLINE_TEXT.test(trimmed))
        return refuse(
          `must be 1 to ${maxLength} characters on one line, without control characters or braces`,
        );
      return accept(trimmed);
    },
  };
}
