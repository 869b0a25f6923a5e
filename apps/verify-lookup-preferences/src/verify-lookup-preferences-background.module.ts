import { Module } from '@nestjs/common';
import { VerifyLookupPreferencesEventsRelay } from './events/verify-lookup-preferences-events.relay';
import { ChannelStatementsConsumer, PreferencesModule } from './preferences';
import { VerificationOutcomes } from './verify';
import { PasscodeIssuer } from './verify/passcode-issuer';
import { Passcodes } from './verify/passcodes';
import { VerificationAttemptsRepository } from './verify/verification-attempts.repository';
import { VerificationsRepository } from './verify/verifications.repository';

/**
 * The service's work that outlives requests: the relay of its outbox onto the event bus, the
 * consumer of the channels' delivery events for passcode messages, and the consumer of the
 * statements people make through the channels (`internal.preference.statement`).
 * Distributed mode runs it in the service's process; the embedded default on its background
 * thread (ADR 11), started before the services that publish (`consumesEvents`).
 */
@Module({
  imports: [PreferencesModule],
  providers: [
    VerifyLookupPreferencesEventsRelay,
    VerificationOutcomes,
    VerificationsRepository,
    VerificationAttemptsRepository,
    Passcodes,
    PasscodeIssuer,
    ChannelStatementsConsumer,
  ],
})
export class VerifyLookupPreferencesBackgroundModule {}
