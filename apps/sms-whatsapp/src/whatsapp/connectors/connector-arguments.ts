import type { ErrorDetail, WhatsAppConnectorArguments } from '@switchboard/contracts';

/** A number of an account, as Meta knows it, to connect. */
export interface NumberToConnect {
  wabaId: string;
  phoneId: string;
  phoneNumber: string;
  /** Two-step verification PIN; without one the number is taken as registered already. */
  pin?: string;
}

/** What a connector's `arguments` ask for: a number given outright, or a legacy channel to read. */
export type ConnectRequest =
  | { kind: 'direct'; number: NumberToConnect }
  | { kind: 'legacy'; channelId: string; accessKey: string };

/** Meta's object ids: digits. */
const META_ID = /^\d{1,32}$/;
export const E164 = /^\+[1-9]\d{6,14}$/;
const PIN = /^\d{6}$/;
const DIRECT_FIELDS = ['wabaId', 'phoneId', 'phoneNumber', 'phoneRegistrationPin'] as const;
const LEGACY_FIELDS = ['cpChannelId', 'cpAccessKey'] as const;

/**
 * The connector's `arguments` checked: either `wabaId`, `phoneId`, `phoneNumber` (E.164) and an
 * optional 6-digit `phoneRegistrationPin`, or `isCpMigrated: true` with `cpChannelId` and
 * `cpAccessKey` and none of the former (the legacy channel supplies them). Problems are listed
 * by `arguments.<field>`.
 */
export function checkedConnectorArguments(
  args: WhatsAppConnectorArguments,
): ConnectRequest | ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const problem = (field: string, message: string) =>
    details.push({ param: `arguments.${field}`, message });
  const given = (field: keyof WhatsAppConnectorArguments) => args[field] !== undefined;
  if (args.isCpMigrated !== undefined && typeof args.isCpMigrated !== 'boolean')
    problem('isCpMigrated', 'must be a boolean');
  if (args.isCpMigrated === true) {
    for (const field of LEGACY_FIELDS) {
      const value = args[field];
      if (typeof value !== 'string' || value.trim() === '' || value.length > 512)
        problem(field, 'is required with isCpMigrated: a string of 1 to 512 characters');
    }
    for (const field of DIRECT_FIELDS)
      if (given(field))
        problem(field, 'must not be given with isCpMigrated (the legacy channel supplies it)');
    if (details.length) return details;
    return { kind: 'legacy', channelId: args.cpChannelId!, accessKey: args.cpAccessKey! };
  }
  for (const field of LEGACY_FIELDS)
    if (given(field)) problem(field, 'is only taken with isCpMigrated: true');
  for (const field of ['wabaId', 'phoneId'] as const) {
    const value = args[field];
    if (typeof value !== 'string' || !META_ID.test(value))
      problem(field, "is required: Meta's numeric ID (digits only)");
  }
  if (typeof args.phoneNumber !== 'string' || !E164.test(args.phoneNumber))
    problem('phoneNumber', 'is required: the number in E.164 format (+ and 7 to 15 digits)');
  const pin = args.phoneRegistrationPin;
  if (pin !== undefined && (typeof pin !== 'string' || !PIN.test(pin)))
    problem('phoneRegistrationPin', 'must be 6 digits');
  if (details.length) return details;
  return {
    kind: 'direct',
    number: {
      wabaId: args.wabaId!,
      phoneId: args.phoneId!,
      phoneNumber: args.phoneNumber!,
      ...(pin !== undefined ? { pin } : {}),
    },
  };
}

/** A phone number as its digits with `+` (Meta's `display_phone_number` is spelled `+1 555-0100`). */
export function e164Of(spelled: string): string {
  return `+${spelled.replace(/\D/g, '')}`;
}
