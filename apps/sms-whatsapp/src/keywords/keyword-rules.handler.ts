import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { SmsKeywordRuleSubjects } from '@switchboard/contracts';
import type {
  CreateSmsKeywordRuleRequest,
  ListSmsKeywordRulesRequest,
  SmsKeywordRuleIdRequest,
  UpdateSmsKeywordRuleRequest,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { KeywordRulesService } from './keyword-rules.service';

/** Transport handlers of SMS keyword rules; the gateway has checked every payload's shape. */
@Controller()
export class KeywordRulesHandler {
  constructor(private readonly rules: KeywordRulesService) {}

  @Handles(SmsKeywordRuleSubjects.List)
  list(@Payload() input: ListSmsKeywordRulesRequest, @Ctx() context: BaseRpcContext) {
    return this.rules.list(requestContextOf(context), input);
  }

  @Handles(SmsKeywordRuleSubjects.Get)
  get(@Payload() input: SmsKeywordRuleIdRequest, @Ctx() context: BaseRpcContext) {
    return this.rules.get(requestContextOf(context), input.id);
  }

  @Handles(SmsKeywordRuleSubjects.Create)
  create(@Payload() input: CreateSmsKeywordRuleRequest, @Ctx() context: BaseRpcContext) {
    return this.rules.create(requestContextOf(context), input);
  }

  @Handles(SmsKeywordRuleSubjects.Update)
  update(@Payload() input: UpdateSmsKeywordRuleRequest, @Ctx() context: BaseRpcContext) {
    return this.rules.update(requestContextOf(context), input);
  }

  @Handles(SmsKeywordRuleSubjects.Delete)
  remove(@Payload() input: SmsKeywordRuleIdRequest, @Ctx() context: BaseRpcContext) {
    return this.rules.delete(requestContextOf(context), input.id);
  }
}
