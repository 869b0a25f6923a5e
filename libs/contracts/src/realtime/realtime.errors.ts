import { codesOf } from '../errors/error-definition';
import type { ErrorDefinition } from '../errors/error-definition';

/** Error codes of realtime apps, keys and the data plane. */
export const RealtimeErrorCatalog = {
  E01013: {
    status: 422,
    type: 'validation_error',
    name: 'LastActiveKey',
    message: 'An app must keep at least one active key.',
    description:
      'The key is the only active key of its realtime app, so revoking it would lock every client out. Create a new key first, move your clients to it, then revoke this one.',
  },
  E01021: {
    status: 400,
    type: 'bad_request_error',
    name: 'RealtimeCountNotAvailable',
    message: 'This count is not available for these channels.',
    description:
      "`include=member_count` is for presence channels only (`presence-` names; on the channel list, a `prefix` starting with `presence-`). `include=connection_count` needs the app's `connection_counting` flag: turn it on with `PATCH /v1/realtime/apps/{id}`.",
  },
  E02004: {
    status: 401,
    type: 'auth_error',
    name: 'RealtimeCredentialsInvalid',
    message: "The realtime app key or secret is missing, unknown, revoked or not this app's.",
    description:
      'Realtime data-plane calls (publish, channels, members) need `X-Realtime-Key` (an active `rak_` key id of the app in the path) and `X-Realtime-Secret` (its secret) beside the API key. A revoked key stops working at once; create a new key and use its secret.',
  },
  E04003: {
    status: 404,
    type: 'not_found_error',
    name: 'RealtimeAppNotFound',
    message: 'The realtime app does not exist.',
    description: 'No realtime app with this ID exists in the workspace of the credential.',
  },
  E04004: {
    status: 404,
    type: 'not_found_error',
    name: 'RealtimeKeyNotFound',
    message: 'The realtime app key does not exist.',
    description: 'No key with this ID belongs to the realtime app.',
  },
  E04011: {
    status: 404,
    type: 'not_found_error',
    name: 'RealtimeChannelNotFound',
    message: 'No channel can have this name.',
    description:
      'A channel name has 1 to 164 letters, digits and `_ - = @ , . ;`. A well-formed name that nobody is subscribed to is not an error: it answers `occupied: false`.',
  },
  E04012: {
    status: 404,
    type: 'not_found_error',
    name: 'RealtimeMemberNotFound',
    message: 'No member can have this id.',
    description:
      'A member id is the `member_id` of the member data your authorization endpoint signed: 1 to 200 printable characters.',
  },
  E06001: {
    status: 409,
    type: 'conflict_error',
    name: 'KeyAlreadyRevoked',
    message: 'The key is already revoked.',
    description:
      'Revoking is final and happens once; the key was revoked earlier (see its `revoked_at`).',
  },
} as const satisfies Record<string, ErrorDefinition>;

/** The codes by name, for throw sites: `new AppError(RealtimeErrors.LastActiveKey)`. */
export const RealtimeErrors = codesOf(RealtimeErrorCatalog);
