import { Module } from '@nestjs/common';
import type { DynamicModule, OnApplicationShutdown } from '@nestjs/common';
import { ServiceClient } from '@switchboard/platform';
import type { TransportSettings } from '@switchboard/platform';
import { VERIFY_LOOKUP_PREFERENCES_CONFIG } from '../config/verify-lookup-preferences.config';
import type { VerifyLookupPreferencesConfig } from '../config/verify-lookup-preferences.config';
import { EmailPasscodes } from './email-passcodes';
import { PASSCODE_CARRIERS } from './passcode-channels';
import type { PasscodeCarrier } from './passcode-channels';
import { PasscodeDelivery } from './passcode-delivery';
import { PasscodeIssuer } from './passcode-issuer';
import { PasscodeRecovery } from './passcode-recovery';
import { Passcodes } from './passcodes';
import { SmsPasscodes } from './sms-passcodes';
import { NewVerifications } from './new-verifications';
import { SendCap } from './send-cap';
import { VerificationChecks } from './verification-checks';
import type { PasscodeChannel } from './verification-rules';
import { VerificationsHandler } from './verifications.handler';
import { VerificationAttemptsRepository } from './verification-attempts.repository';
import { VerificationsRepository } from './verifications.repository';
import { VerificationsService } from './verifications.service';
import { WhatsAppPasscodes } from './whatsapp-passcodes';

/** The client this service asks the channel services with; closed with the service. */
class ChannelServicesClient extends ServiceClient implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return this.close();
  }
}

/**
 * Verifications. `transport` is how the channel services are reached (the service's own, in
 * either mode): the first service-to-service sends, through the channels' typed contracts.
 */
@Module({})
export class VerifyModule {
  static register(transport: TransportSettings): DynamicModule {
    return {
      module: VerifyModule,
      controllers: [VerificationsHandler],
      providers: [
        {
          provide: ChannelServicesClient,
          useFactory: () => new ChannelServicesClient(transport, 'verify'),
        },
        {
          provide: PASSCODE_CARRIERS,
          inject: [ChannelServicesClient, VERIFY_LOOKUP_PREFERENCES_CONFIG],
          useFactory: (services: ServiceClient, config: VerifyLookupPreferencesConfig) =>
            new Map<PasscodeChannel, PasscodeCarrier>([
              ['sms', new SmsPasscodes(services, config.VERIFY_SMS_FROM)],
              [
                'email',
                new EmailPasscodes(
                  services,
                  config.VERIFY_EMAIL_FROM ?? `verify@${config.EMAIL_ONBOARDING_DOMAIN}`,
                ),
              ],
              ['whatsapp', new WhatsAppPasscodes(services)],
            ]),
        },
        VerificationsRepository,
        VerificationAttemptsRepository,
        Passcodes,
        PasscodeIssuer,
        PasscodeDelivery,
        PasscodeRecovery,
        VerificationChecks,
        SendCap,
        NewVerifications,
        VerificationsService,
      ],
    };
  }
}
