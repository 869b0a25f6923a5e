import { gsm7CharSeptets, isGsm7 } from './gsm7';
import { applySmartEncoding } from './smart-encoding';
import { replaceLoneSurrogates } from './ucs2';

/** A body is refused above this many segments; it is never truncated. */
export const SMS_MAX_SEGMENTS = 12;

export type SmsTextEncoding = 'GSM_7BIT' | 'UCS2';

/** The SDK's `SmsSegments`, plus the body as it is actually sent. */
export interface SmsTextMeasure {
  readonly encoding: SmsTextEncoding;
  /** Segments, each a billable unit: exactly the number of parts `encodeSms` sends. */
  readonly count: number;
  /** Unicode code points of `text`, the body as sent (the SDK: `segments` describes that body). */
  readonly characters: number;
  /**
   * The body as sent: the smart-encoded text when that applied, and lone surrogates (which no
   * encoding carries faithfully) replaced by U+FFFD.
   */
  readonly text: string;
}

export interface SmsTextOptions {
  /** The send option `smart_encoding` (default false). */
  readonly smartEncoding?: boolean;
}

/** Units of one segment alone, and of each part of a concatenated message (6 octets go to the UDH). */
const LIMITS: Record<SmsTextEncoding, { single: number; part: number }> = {
  GSM_7BIT: { single: 160, part: 153 },
  UCS2: { single: 70, part: 67 },
};

export function measureSms(text: string, options: SmsTextOptions = {}): SmsTextMeasure {
  return splitSms(text, options).segments;
}

/**
 * The body as sent, cut into the texts of its parts: one part when it fits one segment, else
 * parts of at most 153 septets or 67 UTF-16 units. A GSM escape pair or a UTF-16 surrogate pair
 * that would straddle a boundary moves whole to the next part, leaving that part one unit short,
 * so the segment count is the number of these parts, not a plain division.
 */
export function splitSms(
  text: string,
  options: SmsTextOptions = {},
): { segments: SmsTextMeasure; parts: string[] } {
  const wellFormed = replaceLoneSurrogates(text);
  const sent = options.smartEncoding ? applySmartEncoding(wellFormed) : wellFormed;
  const encoding: SmsTextEncoding = isGsm7(sent) ? 'GSM_7BIT' : 'UCS2';
  const cost = encoding === 'GSM_7BIT' ? gsm7Cost : ucs2Cost;
  const { single, part } = LIMITS[encoding];
  let total = 0;
  for (const char of sent) total += cost(char);
  const parts = total <= single ? [sent] : cut(sent, cost, part);
  const segments = { encoding, count: parts.length, characters: countCodePoints(sent), text: sent };
  return { segments, parts };
}

function cut(text: string, cost: (char: string) => number, part: number): string[] {
  const parts: string[] = [];
  let current = '';
  let units = 0;
  for (const char of text) {
    const charUnits = cost(char);
    if (units + charUnits > part) {
      parts.push(current);
      current = '';
      units = 0;
    }
    current += char;
    units += charUnits;
  }
  parts.push(current);
  return parts;
}

function gsm7Cost(char: string): number {
  return gsm7CharSeptets(char) ?? 0;
}

function ucs2Cost(char: string): number {
  return char.length;
}

function countCodePoints(text: string): number {
  return Array.from(text).length;
}
