/** GSM 03.38's basic set; the extension set's characters cost two septets. */
const GSM_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
const GSM_EXTENSION = new Set('^{}\\[~]|€\f');

/**
 * Whether a keyword reply (with its suffix) fits one SMS: 160 septets in GSM-7, else 70 UTF-16
 * units in UCS-2. The SDK counts reply and suffix against the length one message allows.
 */
export function fitsOneSegment(text: string): boolean {
  let septets = 0;
  for (const char of text) {
    if (GSM_BASIC.has(char)) septets += 1;
    else if (GSM_EXTENSION.has(char)) septets += 2;
    else return text.length <= 70;
  }
  return septets <= 160;
}
