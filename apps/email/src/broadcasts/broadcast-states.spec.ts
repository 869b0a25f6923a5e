import { CommonErrors, EmailBroadcastErrors } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { failureOf } from './broadcast-states';

describe('BroadcastStates', () => {
  describe(failureOf.name, () => {
    it('names why a due broadcast cannot go on: its audience, or its content', () => {
      expect(failureOf(new AppError(EmailBroadcastErrors.BroadcastAudienceUnknown))).toBe(
        'audience_unavailable',
      );
      for (const code of [
        EmailBroadcastErrors.BroadcastIncomplete,
        EmailBroadcastErrors.BroadcastSenderNotVerified,
        EmailBroadcastErrors.BroadcastTemplateNotPublished,
      ])
        expect(failureOf(new AppError(code))).toBe('content_invalid');
    });

    it('leaves anything else to the queue’s retries (a transport time-out, a database error)', () => {
      expect(failureOf(new AppError(CommonErrors.ServiceTimeout))).toBeUndefined();
      expect(failureOf(new Error('connection reset'))).toBeUndefined();
    });
  });
});
