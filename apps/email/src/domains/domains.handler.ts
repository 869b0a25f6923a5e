import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { EmailSubjects } from '@switchboard/contracts';
import type {
  CreateEmailDomainRequest,
  ListEmailDomainsRequest,
  UpdateEmailDomainRequest,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { DomainsService } from './domains.service';

/** Transport handlers of sending domains; the gateway has validated every payload's shape. */
@Controller()
export class DomainsHandler {
  constructor(private readonly domains: DomainsService) {}

  @Handles(EmailSubjects.CreateDomain)
  create(@Payload() input: CreateEmailDomainRequest, @Ctx() context: BaseRpcContext) {
    return this.domains.create(requestContextOf(context), input);
  }

  @Handles(EmailSubjects.ListDomains)
  list(@Payload() input: ListEmailDomainsRequest, @Ctx() context: BaseRpcContext) {
    return this.domains.list(requestContextOf(context), input);
  }

  @Handles(EmailSubjects.GetDomain)
  get(@Payload() input: { domain_id: string }, @Ctx() context: BaseRpcContext) {
    return this.domains.get(requestContextOf(context), input.domain_id);
  }

  @Handles(EmailSubjects.UpdateDomain)
  update(@Payload() input: UpdateEmailDomainRequest, @Ctx() context: BaseRpcContext) {
    return this.domains.update(requestContextOf(context), input);
  }

  @Handles(EmailSubjects.DeleteDomain)
  remove(@Payload() input: { domain_id: string }, @Ctx() context: BaseRpcContext) {
    return this.domains.remove(requestContextOf(context), input.domain_id);
  }

  @Handles(EmailSubjects.VerifyDomain)
  verify(@Payload() input: { domain_id: string }, @Ctx() context: BaseRpcContext) {
    return this.domains.verify(requestContextOf(context), input.domain_id);
  }
}
