import { CONTACT_LIMITS, ContactErrors, isEmail, phoneNumber } from '@switchboard/contracts';
import type { ContactPropertyType, ErrorCode, ErrorDetail } from '@switchboard/contracts';
import { propertyValue } from '../contact-properties/property-values';

export interface PropertyDefinition {
  type: ContactPropertyType;
  archived: boolean;
}
/** The workspace's contact properties by key. */
export type PropertyCatalog = ReadonlyMap<string, PropertyDefinition>;

export type Identifier = 'email' | 'phone_number' | 'external_id';
export const IDENTIFIERS: readonly Identifier[] = ['email', 'phone_number', 'external_id'];

/** The conflict an identifier held by another contact is: 409, naming which one. */
export const IDENTIFIER_TAKEN: Record<Identifier, ErrorCode> = {
  email: ContactErrors.ContactEmailTaken,
  phone_number: ContactErrors.ContactPhoneTaken,
  external_id: ContactErrors.ContactExternalIdTaken,
};

/** Fields as written: absent = unchanged, null = cleared; `data` keys set, or removed by null. */
export interface ContactInput {
  email?: string | null;
  phone_number?: string | null;
  external_id?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  data?: Record<string, unknown>;
}

export interface ReadContact {
  input: ContactInput;
  /** The identifiers in the form used for matching (an invalid phone as sent, trimmed). */
  echo: { email: string | null; phone_number: string | null; external_id: string | null };
  problems: ErrorDetail[];
}

/**
 * `create`: a new contact (null means omitted); `entry`: a batch entry (fields can be set, never
 * cleared; null data values remove keys in merge mode); `update`: a PATCH (null clears).
 */
export type ReadMode = 'create' | 'entry' | 'update';

const FIELDS = new Set(['email', 'phone_number', 'first_name', 'last_name', 'external_id', 'data']);

/**
 * Reads a contact's fields from an unchecked object: every rule of a field, normalization
 * (email trimmed and lowercased, phone to E.164) and `data` against the workspace's properties.
 * Problems name each field (`prefix` + field); the caller decides whether they reject a request
 * or one batch entry.
 */
export function readContact(
  raw: unknown,
  mode: ReadMode,
  properties: PropertyCatalog,
  prefix = '',
): ReadContact {
  const problems: ErrorDetail[] = [];
  const input: ContactInput = {};
  const echo: ReadContact['echo'] = { email: null, phone_number: null, external_id: null };
  const problem = (field: string, message: string) =>
    problems.push({ param: `${prefix}${field}`, message });
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problem('', 'must be an object of contact fields');
    return { input, echo, problems };
  }
  const fields = raw as Record<string, unknown>;
  for (const key of Object.keys(fields))
    if (!FIELDS.has(key)) problem(key, 'is not a contact field');
  const given = (key: string) =>
    fields[key] !== undefined && (fields[key] !== null || mode === 'update');

  if (given('email')) {
    const value = fields.email;
    if (value === null) input.email = null;
    else if (typeof value !== 'string') problem('email', 'must be a string');
    else {
      const email = value.trim().toLowerCase();
      echo.email = email;
      if (email.length > CONTACT_LIMITS.emailLength)
        problem('email', `must have at most ${CONTACT_LIMITS.emailLength} characters`);
      else if (!isEmail(email)) problem('email', 'must be an email address');
      else input.email = email;
    }
  }
  if (given('phone_number')) {
    const value = fields.phone_number;
    if (value === null || value === '') {
      if (mode === 'update') input.phone_number = null;
    } else if (typeof value !== 'string') problem('phone_number', 'must be a string');
    else {
      echo.phone_number = value.trim();
      const phone = phoneNumber(value);
      if (value.length > CONTACT_LIMITS.phoneInputLength)
        problem('phone_number', `must have at most ${CONTACT_LIMITS.phoneInputLength} characters`);
      else if (!phone)
        problem('phone_number', 'must be a phone number in E.164 form: +, country code, number');
      else input.phone_number = echo.phone_number = phone;
    }
  }
  for (const [key, max] of [
    ['external_id', CONTACT_LIMITS.externalIdLength],
    ['first_name', CONTACT_LIMITS.nameLength],
    ['last_name', CONTACT_LIMITS.nameLength],
  ] as const) {
    if (!given(key)) continue;
    const value = fields[key];
    if (value === null) input[key] = null;
    else if (typeof value !== 'string') problem(key, 'must be a string');
    else if (value.length > max) problem(key, `must have at most ${max} characters`);
    else if (key === 'external_id' && value.trim() === '') problem(key, 'must not be empty');
    else {
      input[key] = value;
      if (key === 'external_id') echo.external_id = value;
    }
  }
  if (fields.data !== undefined && fields.data !== null)
    input.data = readData(fields.data, mode, properties, `${prefix}data`, problems);
  return { input, echo, problems };
}

/** The identifiers a write sets, as (kind, value) pairs. */
export function identifiersOf(input: ContactInput): Array<[Identifier, string]> {
  return IDENTIFIERS.flatMap((key): Array<[Identifier, string]> => {
    const value = input[key];
    return typeof value === 'string' ? [[key, value]] : [];
  });
}

function readData(
  value: unknown,
  mode: ReadMode,
  properties: PropertyCatalog,
  param: string,
  problems: ErrorDetail[],
): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push({ param, message: 'must be an object of property keys and values' });
    return undefined;
  }
  const data: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
    const property = properties.get(key);
    if (!property || property.archived) {
      problems.push({
        param: `${param}.${key}`,
        message: property
          ? `the property ${key} is archived: unarchive it to write it`
          : `no contact property has the key ${key}: create it with POST /v1/contact-properties`,
      });
      continue;
    }
    if (raw === null) {
      // A create ignores nulls; an update or a batch entry removes the key.
      if (mode !== 'create') data[key] = null;
      continue;
    }
    const checked = propertyValue(property.type, raw);
    if ('problem' in checked)
      problems.push({ param: `${param}.${key}`, message: `${checked.problem} (${property.type})` });
    else data[key] = checked.value;
  }
  return data;
}

/** `data` with `changes` applied (null removes a key), or `changes` alone when replacing. */
export function mergedData(
  stored: Record<string, unknown>,
  changes: Record<string, unknown> | undefined,
  replace = false,
): Record<string, unknown> {
  if (!changes) return stored;
  const merged: Record<string, unknown> = replace ? {} : { ...stored };
  for (const [key, value] of Object.entries(changes))
    if (value === null) delete merged[key];
    else merged[key] = value;
  return merged;
}

/** The 2 KB rule on the data a contact would hold. */
export function dataProblem(
  data: Record<string, unknown>,
  param = 'data',
): ErrorDetail | undefined {
  const bytes = Buffer.byteLength(JSON.stringify(data));
  return bytes > CONTACT_LIMITS.dataBytes
    ? { param, message: `serializes to ${bytes} bytes; at most ${CONTACT_LIMITS.dataBytes}` }
    : undefined;
}
