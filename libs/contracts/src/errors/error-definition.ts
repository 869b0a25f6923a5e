/**
 * Every error code Switchboard answers with. A code is never renamed or reused; add new ones at the
 * end of their group (E01 request, E02 auth, E03 permission, E04 not found, E05 upstream,
 * E06 conflict, E07 rate limit, E08 billing, E09 internal).
 */
export type ErrorType =
  | 'bad_request_error'
  | 'validation_error'
  | 'auth_error'
  | 'permission_error'
  | 'not_found_error'
  | 'method_not_allowed_error'
  | 'conflict_error'
  | 'gone_error'
  | 'too_early_error'
  | 'precondition_error'
  | 'payload_too_large_error'
  | 'misdirected_error'
  | 'rate_limit_error'
  | 'billing_error'
  | 'internal_error'
  | 'service_unavailable_error';

export interface ErrorDefinition {
  readonly status: number;
  readonly type: ErrorType;
  readonly name: string;
  /** Default human-readable message; a thrower may give a more specific one. */
  readonly message: string;
  /** What the code means and what to do about it: the body of its docs page. */
  readonly description: string;
}

/** `{E04005: {name: 'DomainNotFound'}}` -> `{DomainNotFound: 'E04005'}`: throw sites name their code. */
export function codesOf<C extends Record<string, { readonly name: string }>>(
  catalog: C,
): { readonly [K in keyof C & string as C[K]['name']]: K } {
  return Object.fromEntries(
    Object.entries(catalog).map(([code, definition]) => [definition.name, code]),
  ) as never;
}
