import * as smpp from 'smpp';

const passThrough = { encode: (value: unknown) => value, decode: (value: unknown) => value };

/**
 * As the carrier layer's `keepRawShortMessages` (an app may not be imported here): the `smpp`
 * package leaves `short_message` and `message_payload` as the bytes on the wire, which
 * `decodeSmsPart` reads. Process-wide and idempotent.
 */
export function keepRawShortMessages(): void {
  for (const command of ['submit_sm', 'deliver_sm', 'data_sm']) {
    const param = smpp.commands[command]?.params?.short_message;
    if (param) param.filter = passThrough;
  }
  const payload = smpp.tlvs.message_payload;
  if (payload) payload.filter = passThrough;
}
