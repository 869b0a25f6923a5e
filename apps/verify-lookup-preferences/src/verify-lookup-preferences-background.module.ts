import { Module } from '@nestjs/common';
import { VerifyLookupPreferencesEventsRelay } from './events/verify-lookup-preferences-events.relay';

/**
 * The service's work that outlives requests: the relay of its outbox onto the event bus.
 * Distributed mode runs it in the service's process; the embedded default on its background
 * thread (ADR 11).
 */
@Module({ providers: [VerifyLookupPreferencesEventsRelay] })
export class VerifyLookupPreferencesBackgroundModule {}
