import { WhatsAppConnectErrors } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { e164Of } from './connector-arguments';
import type { NumberToConnect } from './connector-arguments';

/** One channel of the legacy channel list (spec: Legacy channel list). */
interface LegacyChannel {
  id: string;
  name?: string;
  settings?: {
    waba_id?: string;
    msisdn?: string;
    phone_number_id?: string;
    pin?: string;
    display_name?: string;
  };
}

const PAGE_SIZE = 100;
/** A list longer than this is not a list a migration should walk. */
const MAX_PAGES = 100;
const TIMEOUT_MS = 10_000;

/**
 * Reads the number a legacy WhatsApp channel holds from the legacy channel source at `CP_URL`
 * (`GET /v1/channels?limit&offset&platform=whatsapp`, `Authorization: AccessKey <key>`), walking
 * the pages until the channel turns up. Unset `CP_URL`, an unreachable source, a refused key and
 * an unknown channel are each their own error; nothing is connected on any of them.
 */
export async function readLegacyChannel(
  cpUrl: string | undefined,
  channelId: string,
  accessKey: string,
): Promise<NumberToConnect> {
  if (!cpUrl) throw new AppError(WhatsAppConnectErrors.LegacyChannelSourceNotConfigured);
  for (let page = 0; page < MAX_PAGES; page++) {
    const offset = page * PAGE_SIZE;
    const list = await fetchPage(cpUrl, accessKey, offset);
    const channel = list.channels.find((candidate) => String(candidate.id) === channelId);
    if (channel) return numberOf(channel);
    if (!list.channels.length || offset + list.channels.length >= list.count) break;
  }
  throw new AppError(WhatsAppConnectErrors.LegacyChannelNotFound, {
    param: 'arguments.cpChannelId',
  });
}

async function fetchPage(
  cpUrl: string,
  accessKey: string,
  offset: number,
): Promise<{ count: number; channels: LegacyChannel[] }> {
  const url = new URL(`${cpUrl.replace(/\/+$/, '')}/v1/channels`);
  url.searchParams.set('limit', String(PAGE_SIZE));
  url.searchParams.set('offset', String(offset));
  url.searchParams.set('platform', 'whatsapp');
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { authorization: `AccessKey ${accessKey}`, accept: 'application/json' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw unavailable(`could not be reached (${(err as Error).message})`);
  }
  if (response.status === 401 || response.status === 403)
    throw new AppError(WhatsAppConnectErrors.LegacyAccessKeyRejected, {
      param: 'arguments.cpAccessKey',
    });
  if (!response.ok) throw unavailable(`answered ${response.status}`);
  const body = (await response.json().catch(() => undefined)) as
    { count?: unknown; channels?: unknown } | undefined;
  if (!body || !Array.isArray(body.channels)) throw unavailable('answered an unreadable list');
  const count = typeof body.count === 'number' ? body.count : offset + body.channels.length;
  // A source may list anything: only objects are channels.
  const channels = (body.channels as unknown[]).filter(
    (item): item is LegacyChannel => typeof item === 'object' && item !== null,
  );
  return { count, channels };
}

function numberOf(channel: LegacyChannel): NumberToConnect {
  const settings = channel.settings ?? {};
  const { waba_id: wabaId, phone_number_id: phoneId, msisdn, pin } = settings;
  if (!wabaId || !phoneId || !msisdn)
    throw unavailable(`holds channel ${channel.id} without waba_id, phone_number_id and msisdn`);
  // What reaches Meta from the source is held to the rules a connector's own arguments meet.
  const phoneNumber = e164Of(String(msisdn));
  if (
    !/^\d{1,32}$/.test(String(wabaId)) ||
    !/^\d{1,32}$/.test(String(phoneId)) ||
    !/^\+\d{6,15}$/.test(phoneNumber)
  )
    throw unavailable(
      `holds channel ${channel.id} with a malformed waba_id, phone_number_id or msisdn`,
    );
  if (pin && !/^\d{6}$/.test(String(pin)))
    throw unavailable(`holds channel ${channel.id} with a pin that is not six digits`);
  return {
    wabaId: String(wabaId),
    phoneId: String(phoneId),
    phoneNumber,
    ...(pin ? { pin: String(pin) } : {}),
  };
}

function unavailable(what: string): AppError {
  return new AppError(WhatsAppConnectErrors.LegacyChannelSourceUnavailable, {
    message: `The legacy channel source ${what}.`,
  });
}
