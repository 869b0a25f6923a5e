import { codesOf } from '../errors/error-definition';
import type { ErrorDefinition } from '../errors/error-definition';

/** Error codes of voice call records. */
export const VoiceErrorCatalog = {
  E04066: {
    status: 404,
    type: 'not_found_error',
    name: 'VoiceCallNotFound',
    message: 'The call does not exist.',
    description:
      'No call with this ID exists in the workspace of the credential. Calls are recorded as the SIP platform reports them; find IDs with `GET /v1/voice/calls` (remember that without `status` it lists ended calls only).',
  },
} as const satisfies Record<string, ErrorDefinition>;

export const VoiceErrors = codesOf(VoiceErrorCatalog);
