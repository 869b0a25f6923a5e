import { Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { VerifySubjects } from '@switchboard/contracts';
import type { RequestContext, Verification, VerificationCheckResult } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import { CallContext, ValidBody } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import { CheckVerificationDto, CreateVerificationDto, NextChannelDto } from './verify.dto';

const verify = { tag: 'Verify', auth: 'api', role: 'write', rateLimit: 'write' } as const;

/** Verifications addressed by recipient, answered by the verify-lookup-preferences service. */
@Controller('v1/verify/verifications')
export class VerifyController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post()
  @HttpCode(200)
  @Route({
    ...verify,
    summary:
      'Start a verification and send a one-time passcode (a repeat for the same recipient reuses it: no send within the cooldown, then a resend that spends an hourly send slot)',
    body: CreateVerificationDto,
    response: { status: 200, description: 'The verification (never the passcode)' },
    errors: [422, 429],
  })
  create(
    @ValidBody() body: CreateVerificationDto,
    @CallContext() context: RequestContext,
  ): Promise<Verification> {
    return this.services.send(VerifySubjects.Create, { ...body }, context);
  }

  @Post('check')
  @HttpCode(200)
  @Route({
    ...verify,
    summary:
      'Check a passcode for the recipient (a wrong code is 200 with success false; none in progress is 404 E13000)',
    body: CheckVerificationDto,
    response: { status: 200, description: 'The outcome and the verification' },
    errors: [404, 422],
  })
  check(
    @ValidBody() body: CheckVerificationDto,
    @CallContext() context: RequestContext,
  ): Promise<VerificationCheckResult> {
    return this.services.send(VerifySubjects.Check, { ...body }, context);
  }

  @Post('next-channel')
  @HttpCode(200)
  @Route({
    ...verify,
    summary:
      "Send a fresh passcode on the plan's next channel (bypasses the cooldown, spends no send slot; earlier passcodes stay valid)",
    body: NextChannelDto,
    response: { status: 200, description: 'The verification' },
    errors: [404, 422],
  })
  nextChannel(
    @ValidBody() body: NextChannelDto,
    @CallContext() context: RequestContext,
  ): Promise<Verification> {
    return this.services.send(VerifySubjects.NextChannel, { ...body }, context);
  }
}
