import type { VerifyLookupPreferencesConfig } from '../config/verify-lookup-preferences.config';

/**
 * `VERIFY_TEST_RECIPIENTS` as addresses are compared (emails lowercased): their passcode is
 * `VERIFY_TEST_CODE` and no channel is asked to send it, as app-store review accounts and
 * end-to-end tests need. Every other rule (checks, expiry, the hourly cap) applies.
 */
export function testRecipientsOf(config: VerifyLookupPreferencesConfig): ReadonlySet<string> {
  return new Set(config.VERIFY_TEST_RECIPIENTS.map((address) => address.trim().toLowerCase()));
}
