import { isIP } from 'node:net';
import { CommonErrors, WhatsAppContentErrors } from '@switchboard/contracts';
import type { ErrorCode, ErrorDetail } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';

/** A problem of a send, with the code it is answered with. */
export interface ContentProblem extends ErrorDetail {
  code: ErrorCode;
}

/** Reports a problem of the field at `param` (its path in the request body). */
export type Report = (param: string, message: string, code?: ErrorCode) => void;

/** Collects problems; every rule reports and goes on, so one 422 names them all. */
export function problemCollector(): { problems: ContentProblem[]; report: Report } {
  const problems: ContentProblem[] = [];
  const report: Report = (param, message, code = WhatsAppContentErrors.WhatsAppContentInvalid) =>
    problems.push({ param, message, code });
  return { problems, report };
}

/** The order a request with several kinds of problem is answered by: the first kind found. */
const CODE_ORDER: ErrorCode[] = [
  CommonErrors.ValidationError,
  WhatsAppContentErrors.WhatsAppContentRequired,
  WhatsAppContentErrors.WhatsAppContentAmbiguous,
  WhatsAppContentErrors.WhatsAppInvalidRecipient,
  WhatsAppContentErrors.WhatsAppInteractiveLimitExceeded,
  WhatsAppContentErrors.WhatsAppInteractiveDuplicateLabel,
  WhatsAppContentErrors.WhatsAppInteractiveCarouselButtonsMismatch,
  WhatsAppContentErrors.WhatsAppTemplateParameterMismatch,
  WhatsAppContentErrors.WhatsAppContentInvalid,
];

/** Every problem in one 422, under the code of the most telling kind; `param` names the first. */
export function contentProblemsError(problems: ContentProblem[]): AppError {
  const chosen =
    CODE_ORDER.find((code) => problems.some((p) => p.code === code)) ?? problems[0].code;
  const first = problems.find((problem) => problem.code === chosen) ?? problems[0];
  return new AppError(chosen, {
    message: `${first.param}: ${first.message}`,
    param: first.param,
    details: problems.map(({ param, message }) => ({ param, message })),
  });
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Refuses the keys of `value` that are not in `known`. */
export function refuseUnknown(
  value: Record<string, unknown>,
  known: readonly string[],
  at: string,
  report: Report,
  what: string,
): void {
  for (const key of Object.keys(value))
    if (!known.includes(key)) report(`${at}.${key}`, `is not a field of ${what}`);
}

/** A string of `min` to `max` characters (UTF-16 code units, as WhatsApp counts), or undefined. */
export function checkText(
  value: unknown,
  at: string,
  report: Report,
  { max, min = 1, required = false }: { max: number; min?: number; required?: boolean },
): string | undefined {
  if (value === undefined || value === null) {
    if (required) report(at, 'is required');
    return undefined;
  }
  if (typeof value !== 'string') report(at, 'must be a string');
  else if (value.trim().length < min)
    report(at, min === 1 ? 'must not be empty' : `must be at least ${min} characters`);
  else if (value.length > max) report(at, `must be at most ${max} characters`);
  else return value;
  return undefined;
}

export function checkBoolean(value: unknown, at: string, report: Report): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') report(at, 'must be true or false');
  return typeof value === 'boolean' ? value : undefined;
}

/** A list of at most `max` entries (more answers `limitCode`), or undefined. */
export function checkList(
  value: unknown,
  at: string,
  report: Report,
  { min = 1, max, limitCode }: { min?: number; max: number; limitCode?: ErrorCode },
): unknown[] | undefined {
  if (value === undefined || value === null) {
    if (min > 0) report(at, 'is required');
    return undefined;
  }
  if (!Array.isArray(value)) {
    report(at, 'must be a list');
    return undefined;
  }
  if (value.length < min)
    report(at, `must hold at least ${min} ${min === 1 ? 'entry' : 'entries'}`);
  if (value.length > max) report(at, `must hold at most ${max} entries`, limitCode);
  return value as unknown[];
}

/** Hosts WhatsApp cannot reach: loopback, private, link-local and unqualified names. */
function isPrivateHost(hostname: string): boolean {
  // A trailing dot names the same host (`localhost.` is localhost).
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.+$/, '');
  const family = isIP(host);
  if (family === 4) {
    const [a, b] = host.split('.').map(Number);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  if (family === 6)
    return (
      host === '::' ||
      host === '::1' ||
      /^(fc|fd|fe8|fe9|fea|feb)/.test(host) ||
      host.startsWith('::ffff:')
    );
  return (
    !host.includes('.') ||
    host === 'localhost' ||
    /\.(localhost|local|internal|lan|home|corp|test|invalid|example)$/.test(host)
  );
}

/** A public `https` URL WhatsApp can fetch at send time (it neither stores nor proxies it). */
export function checkMediaUrl(
  value: unknown,
  at: string,
  report: Report,
  { required = true, httpAllowed = false }: { required?: boolean; httpAllowed?: boolean } = {},
): string | undefined {
  const text = checkText(value, at, report, { max: 2000, required });
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    report(at, 'must be an absolute URL');
    return undefined;
  }
  const schemes = httpAllowed ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol))
    report(at, httpAllowed ? 'must be an http or https URL' : 'must be an https URL');
  else if (url.username || url.password) report(at, 'must not carry credentials');
  else if (isPrivateHost(url.hostname))
    report(at, 'must be a public address WhatsApp can reach, not a private or local host');
  else return text;
  return undefined;
}
