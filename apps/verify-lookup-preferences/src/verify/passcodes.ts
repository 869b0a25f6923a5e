import { createHmac } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { VERIFY_LOOKUP_PREFERENCES_CONFIG } from '../config/verify-lookup-preferences.config';
import type { VerifyLookupPreferencesConfig } from '../config/verify-lookup-preferences.config';
import { derivePasscode, passcodeHash } from './verification-rules';

/**
 * The service's passcode keys, each derived from `ENCRYPTION_KEY` for its use only: one makes a
 * passcode from an attempt's seed, the other hashes it for the checks. Test recipients
 * (`VERIFY_TEST_RECIPIENTS`, emails lowercased) always get `VERIFY_TEST_CODE` and are never sent
 * one, as app-store review accounts and end-to-end tests need; every other rule holds for them.
 */
@Injectable()
export class Passcodes {
  readonly hashKey: Buffer;
  private readonly deriveKey: Buffer;
  private readonly testRecipients: ReadonlySet<string>;

  constructor(
    @Inject(VERIFY_LOOKUP_PREFERENCES_CONFIG)
    private readonly config: VerifyLookupPreferencesConfig,
  ) {
    this.hashKey = keyFor(config.ENCRYPTION_KEY, 'switchboard verify passcode key');
    this.deriveKey = keyFor(config.ENCRYPTION_KEY, 'switchboard verify passcode derivation');
    this.testRecipients = new Set(
      config.VERIFY_TEST_RECIPIENTS.map((address) => address.trim().toLowerCase()),
    );
  }

  isTestRecipient(address: string): boolean {
    return this.testRecipients.has(address);
  }

  /** The passcode an attempt to `address` sends, from its seed. */
  passcodeOf(verificationId: string, address: string, seed: string, length: number): string {
    return this.isTestRecipient(address)
      ? this.config.VERIFY_TEST_CODE
      : derivePasscode(this.deriveKey, verificationId, seed, length);
  }

  hashOf(verificationId: string, code: string): Buffer {
    return passcodeHash(this.hashKey, verificationId, code);
  }
}

function keyFor(secret: string, use: string): Buffer {
  return createHmac('sha256', secret).update(use).digest();
}
