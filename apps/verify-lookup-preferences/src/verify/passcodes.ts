import { createHmac } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { VERIFY_LOOKUP_PREFERENCES_CONFIG } from '../config/verify-lookup-preferences.config';
import type { VerifyLookupPreferencesConfig } from '../config/verify-lookup-preferences.config';
import { derivePasscode, passcodeHash } from './verification-rules';
import type { VerificationRow } from './verifications.repository';

/**
 * The service's passcode keys, each derived from `ENCRYPTION_KEY` for its use only: one makes a
 * passcode from an attempt's seed, the other hashes it for the checks. Test recipients
 * (`VERIFY_TEST_RECIPIENTS`: `<workspace id>:<address>`, or `*:<address>` for every workspace)
 * always get `VERIFY_TEST_CODE` and are never sent one, as app-store review accounts and
 * end-to-end tests need; every other rule holds for them.
 */
@Injectable()
export class Passcodes {
  readonly hashKey: Buffer;
  private readonly deriveKey: Buffer;
  /** `<workspace id> <address>`, `* <address>` for every workspace. */
  private readonly testRecipients: ReadonlySet<string>;
  private readonly testCode?: string;

  constructor(@Inject(VERIFY_LOOKUP_PREFERENCES_CONFIG) config: VerifyLookupPreferencesConfig) {
    this.hashKey = keyFor(config.ENCRYPTION_KEY, 'switchboard verify passcode key');
    this.deriveKey = keyFor(config.ENCRYPTION_KEY, 'switchboard verify passcode derivation');
    this.testRecipients = testRecipientsOf(config.VERIFY_TEST_RECIPIENTS);
    this.testCode = config.VERIFY_TEST_CODE;
    if (this.testRecipients.size > 0 && !this.testCode)
      throw new Error('VERIFY_TEST_RECIPIENTS is set: VERIFY_TEST_CODE must be set too');
  }

  isTestRecipient(workspaceId: string, address: string): boolean {
    return (
      this.testRecipients.has(`${workspaceId} ${address}`) ||
      this.testRecipients.has(`* ${address}`)
    );
  }

  /** The passcode an attempt of `row` to `address` sends, from its seed. */
  passcodeOf(row: VerificationRow, address: string, seed: string): string {
    return this.isTestRecipient(row.workspace_id, address)
      ? (this.testCode as string)
      : derivePasscode(this.deriveKey, row.id, seed, row.code_length);
  }

  hashOf(verificationId: string, code: string): Buffer {
    return passcodeHash(this.hashKey, verificationId, code);
  }
}

function keyFor(secret: string, use: string): Buffer {
  return createHmac('sha256', secret).update(use).digest();
}

/** `ws_1:+3161..., *:Reviewer@Example.com` as `ws_1 +3161...`, `* reviewer@example.com`. */
export function testRecipientsOf(entries: readonly string[]): ReadonlySet<string> {
  return new Set(
    entries.map((entry) => {
      const colon = entry.indexOf(':');
      return `${entry.slice(0, colon).trim()} ${entry
        .slice(colon + 1)
        .trim()
        .toLowerCase()}`;
    }),
  );
}
