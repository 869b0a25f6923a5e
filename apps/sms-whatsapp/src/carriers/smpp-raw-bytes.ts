import * as smpp from 'smpp';

const passThrough = { encode: (value: unknown) => value, decode: (value: unknown) => value };

/**
 * Makes the `smpp` package leave `short_message` and `message_payload` as the bytes on the wire.
 * Its own filter decodes them with a guessed encoding (GSM 03.38 for data_coding 0, which it
 * mislabels, and no UDH-aware concatenation), which loses what our decoder needs. Process-wide
 * and idempotent: the test SMSC applies the same patch (libs/testing), whichever runs first.
 */
export function keepRawShortMessages(): void {
  for (const command of ['submit_sm', 'deliver_sm', 'data_sm']) {
    const param = smpp.commands[command]?.params?.short_message;
    if (param) param.filter = passThrough;
  }
  const payload = smpp.tlvs.message_payload;
  if (payload) payload.filter = passThrough;
}
