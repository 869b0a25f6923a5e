import { WHATSAPP_CONTENT_LIMITS as L } from '@switchboard/contracts';
import type { WhatsAppLocationSend, WhatsAppSendRequest } from '@switchboard/contracts';
import {
  checkBoolean,
  checkMediaUrl,
  checkText,
  isObject,
  refuseUnknown,
} from './content-problems';
import type { Report } from './content-problems';

type Send = WhatsAppSendRequest;
type MediaKind = 'image' | 'video' | 'audio' | 'sticker' | 'document';

/** The object of a content field, or undefined (reported) when it is not one. */
export function contentObject(
  value: unknown,
  at: string,
  report: Report,
): Record<string, unknown> | undefined {
  if (isObject(value)) return value;
  report(at, 'must be an object');
  return undefined;
}

export function checkTextContent(value: unknown, report: Report): Send['text'] {
  const text = contentObject(value, 'text', report);
  if (!text) return undefined;
  refuseUnknown(text, ['body', 'preview_url'], 'text', report, 'a text message');
  const body = checkText(text.body, 'text.body', report, { max: L.textBody, required: true });
  const previewUrl = checkBoolean(text.preview_url, 'text.preview_url', report);
  if (body === undefined) return undefined;
  return previewUrl === undefined ? { body } : { body, preview_url: previewUrl };
}

const MEDIA_FIELDS: Record<MediaKind, readonly string[]> = {
  image: ['url', 'caption'],
  video: ['url', 'caption'],
  audio: ['url', 'voice'],
  sticker: ['url'],
  document: ['url', 'caption', 'filename'],
};

/** A media send: a public https `url`, and the caption, filename or voice flag its kind takes. */
export function checkMediaContent<K extends MediaKind>(
  kind: K,
  value: unknown,
  report: Report,
): Send[K] {
  const media = contentObject(value, kind, report);
  if (!media) return undefined;
  refuseUnknown(media, MEDIA_FIELDS[kind], kind, report, `${a(kind)} ${kind} message`);
  const url = checkMediaUrl(media.url, `${kind}.url`, report);
  const result: Record<string, unknown> = { url };
  if ('caption' in media && MEDIA_FIELDS[kind].includes('caption'))
    result.caption = checkText(media.caption, `${kind}.caption`, report, { max: L.caption });
  if ('filename' in media && kind === 'document') {
    const filename = checkText(media.filename, 'document.filename', report, { max: L.filename });
    if (filename !== undefined && /[/\\\u0000-\u001f]/.test(filename))
      report('document.filename', 'must be a file name, without slashes or control characters');
    result.filename = filename;
  }
  if ('voice' in media && kind === 'audio')
    result.voice = checkBoolean(media.voice, 'audio.voice', report);
  for (const key of Object.keys(result)) if (result[key] === undefined) delete result[key];
  return url === undefined ? undefined : (result as Send[K]);
}

const a = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

/** Decimal degrees within `limit`. */
function checkDegrees(
  value: unknown,
  at: string,
  limit: number,
  report: Report,
): number | undefined {
  if (value === undefined || value === null) report(at, 'is required');
  else if (typeof value !== 'number' || !Number.isFinite(value)) report(at, 'must be a number');
  else if (Math.abs(value) > limit) report(at, `must be between -${limit} and ${limit}`);
  else return value;
  return undefined;
}

/** A point on the map (also a template's location parameter, at `at`). */
export function checkLocation(
  value: unknown,
  at: string,
  report: Report,
): WhatsAppLocationSend | undefined {
  const location = contentObject(value, at, report);
  if (!location) return undefined;
  refuseUnknown(location, ['latitude', 'longitude', 'name', 'address'], at, report, 'a location');
  const latitude = checkDegrees(location.latitude, `${at}.latitude`, 90, report);
  const longitude = checkDegrees(location.longitude, `${at}.longitude`, 180, report);
  const name = checkText(location.name, `${at}.name`, report, { max: L.placeName });
  const address = checkText(location.address, `${at}.address`, report, { max: L.placeAddress });
  if (latitude === undefined || longitude === undefined) return undefined;
  return {
    latitude,
    longitude,
    ...(name !== undefined && { name }),
    ...(address !== undefined && { address }),
  };
}
