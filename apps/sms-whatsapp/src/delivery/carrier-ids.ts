/** Longest id whose other spelling is worked out (a 128-bit number in hex). */
const MAX_CONVERTED_LENGTH = 39;

/** An id as compared: trimmed, lowercased, without leading zeros (`0` stays `0`). */
function canonical(id: string): string {
  const lower = id.trim().toLowerCase();
  const stripped = lower.replace(/^0+/, '');
  return stripped === '' && lower !== '' ? '0' : stripped;
}

/**
 * The keys a carrier message id is matched by: its canonical spelling and, when it reads as a
 * hexadecimal or a decimal number, the same number in the other base. Carriers commonly answer
 * `submit_sm_resp` with one base and write the receipt's `id:` in the other, so a part and its
 * receipt match when their keys overlap.
 */
export function carrierIdKeys(id: string): string[] {
  const key = canonical(id);
  const keys = new Set([key]);
  if (key.length > 0 && key.length <= MAX_CONVERTED_LENGTH) {
    if (/^[0-9a-f]+$/.test(key)) keys.add(BigInt(`0x${key}`).toString(10));
    if (/^[0-9]+$/.test(key)) keys.add(BigInt(key).toString(16));
  }
  return [...keys];
}
