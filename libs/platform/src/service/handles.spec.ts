import { Controller } from '@nestjs/common';
import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import { EmailSubjects, RealtimeSubjects } from '@switchboard/contracts';
import type { EmailDomain, EmailMessageIdRequest, RequestContext } from '@switchboard/contracts';
import type { ServiceClient } from '../transport/service-client';
import { Handles } from './handles';

/*
 * The transport is typed by the contracts' RpcMap: a payload or reply that does not match its
 * subject fails `npm run typecheck`. Each `@ts-expect-error` below fails the type-check if the
 * line under it ever compiles.
 */

@Controller()
class TypedHandlers {
  @Handles(EmailSubjects.GetDomain)
  get(input: { domain_id: string }): Promise<EmailDomain> {
    return Promise.resolve({ id: input.domain_id } as EmailDomain);
  }

  @Handles(EmailSubjects.CancelMessage)
  cancel(input: EmailMessageIdRequest): null {
    void input;
    return null;
  }

  @Handles(RealtimeSubjects.ListRegions)
  regions() {
    return { data: [] };
  }
}

@Controller()
class MismatchedHandlers {
  // @ts-expect-error the domain operation's payload names domain_id, not message_id
  @Handles(EmailSubjects.GetDomain)
  wrongPayload(input: { message_id: string }) {
    return Promise.resolve({ id: input.message_id } as EmailDomain);
  }

  // @ts-expect-error a cancel answers no content, not a message count
  @Handles(EmailSubjects.CancelMessage)
  wrongReply(input: EmailMessageIdRequest) {
    return { canceled: input.message_id.length };
  }
}

export function typedSends(client: ServiceClient, context: RequestContext): void {
  void client.send(EmailSubjects.GetDomain, { domain_id: 'dom_1' }, context);
  // @ts-expect-error the payload of email.domain.get has no message_id
  void client.send(EmailSubjects.GetDomain, { message_id: 'em_1' }, context);
  // @ts-expect-error no service answers this subject
  void client.send('email.domain.explode', {}, context);
  void client
    .send(EmailSubjects.GetDomain, { domain_id: 'dom_1' }, context)
    // @ts-expect-error the reply is an EmailDomain, which has no subject line
    .then((domain) => domain.subject);
}

describe(Handles.name, () => {
  it('registers the subject as the method message pattern', () => {
    const patternOf = (handler: object) =>
      Reflect.getMetadata(PATTERN_METADATA, handler) as unknown;
    expect(patternOf(TypedHandlers.prototype.get)).toEqual([EmailSubjects.GetDomain]);
    expect(patternOf(TypedHandlers.prototype.regions)).toEqual([RealtimeSubjects.ListRegions]);
    expect(patternOf(MismatchedHandlers.prototype.wrongReply)).toEqual([
      EmailSubjects.CancelMessage,
    ]);
  });
});
