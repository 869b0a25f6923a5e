import { codesOf } from '../errors/error-definition';
import type { ErrorDefinition } from '../errors/error-definition';

/** Error codes of numbers, their orders and stock, and alphanumeric SMS senders. */
export const NumbersErrorCatalog = {
  E04063: {
    status: 404,
    type: 'not_found_error',
    name: 'NumberNotFound',
    message: 'The number does not exist.',
    description:
      'No number with this ID is allocated to the workspace of the credential. A number the workspace released is no longer returned: releasing is irreversible. Read the IDs of the numbers you hold with `GET /v1/numbers`.',
  },
  E04064: {
    status: 404,
    type: 'not_found_error',
    name: 'AvailableNumberNotFound',
    message: 'The number is not available.',
    description:
      'The number is not on sale now: no such number is stocked, or a workspace (possibly yours) holds it already. A number listed by `GET /v1/numbers/available` a moment ago may have been ordered since; search again for another.',
  },
  E04065: {
    status: 404,
    type: 'not_found_error',
    name: 'NumberOrderNotFound',
    message: 'The number order does not exist.',
    description: 'No number order with this ID exists in the workspace of the credential.',
  },
  E04067: {
    status: 404,
    type: 'not_found_error',
    name: 'SmsSenderNotFound',
    message: 'The SMS sender does not exist.',
    description:
      'No alphanumeric SMS sender with this ID is registered for the workspace named in the path. List the registered senders with `GET /admin/v1/workspaces/{workspace_id}/sms-senders`.',
  },
  E06012: {
    status: 409,
    type: 'conflict_error',
    name: 'NumberAlreadyStocked',
    message: 'This number is already in stock.',
    description:
      'The operator API stocks each number once: the number (E.164, or the digits of a short code) is already in the stock, whoever holds it. List the stock with `GET /admin/v1/numbers`; to change a number, remove it from stock while no workspace holds it (`DELETE /admin/v1/numbers/{number}`) and stock it again.',
  },
  E06013: {
    status: 409,
    type: 'conflict_error',
    name: 'SmsSenderAlreadyRegistered',
    message: 'This sender is already registered for the workspace.',
    description:
      'The workspace already has this alphanumeric sender (senders are compared exactly, case included). `GET /admin/v1/workspaces/{workspace_id}/sms-senders` lists it with its categories; to change them, delete the sender and register it again.',
  },
  E14001: {
    status: 409,
    type: 'conflict_error',
    name: 'NumberNotAvailable',
    message: 'The number is not available to order.',
    description:
      'The order named a number that is not on sale: a workspace holds it already (another order may have taken it a moment earlier), it is not stocked, or it is a shared number, which the operator assigns rather than sells. Nothing was charged and no order was recorded. Search `GET /v1/numbers/available?country_code=...` and order another number.',
  },
  E14002: {
    status: 422,
    type: 'validation_error',
    name: 'SharedNumberNotReleasable',
    message: 'A shared number cannot be released.',
    description:
      'Only a `dedicated` number, one your workspace ordered, can be released with `DELETE /v1/numbers/{number_id}`. A `shared` number is assigned to the workspace by the operator on shared infrastructure and is not billed as a subscription; it stays allocated. Ask the operator to withdraw it (`DELETE /admin/v1/numbers/{number}`).',
  },
  E14003: {
    status: 409,
    type: 'conflict_error',
    name: 'StockedNumberHeld',
    message: 'A workspace holds this number.',
    description:
      'A dedicated number can be removed from stock only while no workspace holds it. The `holder` of the number in `GET /admin/v1/numbers` names the workspace; once it releases the number (`DELETE /v1/numbers/{number_id}`), remove it. A shared number is withdrawn from its workspace by removing it.',
  },
} as const satisfies Record<string, ErrorDefinition>;

export const NumbersErrors = codesOf(NumbersErrorCatalog);
