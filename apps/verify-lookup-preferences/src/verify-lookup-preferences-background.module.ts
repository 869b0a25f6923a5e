import { Module } from '@nestjs/common';
import { VerifyLookupPreferencesEventsRelay } from './events/verify-lookup-preferences-events.relay';
import { VerificationOutcomes } from './verify';
import { VerificationsRepository } from './verify/verifications.repository';

/**
 * The service's work that outlives requests: the relay of its outbox onto the event bus, and
 * the consumer of the channels' delivery events for passcode messages.
 * Distributed mode runs it in the service's process; the embedded default on its background
 * thread (ADR 11).
 */
@Module({
  providers: [VerifyLookupPreferencesEventsRelay, VerificationOutcomes, VerificationsRepository],
})
export class VerifyLookupPreferencesBackgroundModule {}
