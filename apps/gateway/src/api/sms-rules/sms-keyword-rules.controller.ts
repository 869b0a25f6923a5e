import { Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { SmsKeywordRuleSubjects } from '@switchboard/contracts';
import type { RequestContext } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import { CallContext, ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import {
  CreateSmsKeywordRuleDto,
  ListSmsKeywordRulesQuery,
  UpdateSmsKeywordRuleDto,
} from './sms-keyword-rules.dto';

const rules = { tag: 'SMS keyword rules', auth: 'api' } as const;

/** The defaults (`sks_`, read-only) and the workspace's own rules (`skw_`), most specific first. */
@Controller('v1/sms/keyword-rules')
export class SmsKeywordRulesController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @Route({
    ...rules,
    summary: 'List the keyword rules that apply, defaults included, most specific first',
    role: 'read',
    // A list, whole in one answer: the list quota, like every page of a list.
    rateLimit: 'api_list',
    query: ListSmsKeywordRulesQuery,
    response: { status: 200, description: 'The rules, as {data}' },
  })
  list(@ValidQuery() query: ListSmsKeywordRulesQuery, @CallContext() context: RequestContext) {
    return this.services.send(SmsKeywordRuleSubjects.List, { ...query }, context);
  }

  @Post()
  @HttpCode(201)
  @Route({
    ...rules,
    summary:
      "Create a workspace rule: replace a country's stop, start or help reply, or add a custom keyword",
    role: 'write',
    rateLimit: 'write',
    body: CreateSmsKeywordRuleDto,
    response: { status: 201, description: 'The rule' },
  })
  create(@ValidBody() body: CreateSmsKeywordRuleDto, @CallContext() context: RequestContext) {
    return this.services.send(SmsKeywordRuleSubjects.Create, { ...body }, context);
  }

  @Get(':keyword_rule_id')
  @Route({
    ...rules,
    summary: 'Get a keyword rule (a default or one of the workspace)',
    role: 'read',
    rateLimit: 'read',
    response: { status: 200, description: 'The rule' },
  })
  get(@Param('keyword_rule_id') id: string, @CallContext() context: RequestContext) {
    return this.services.send(SmsKeywordRuleSubjects.Get, { id }, context);
  }

  @Patch(':keyword_rule_id')
  @Route({
    ...rules,
    summary:
      "Change a workspace rule's reply or added keywords (keywords: [] resets to the defaults)",
    role: 'write',
    rateLimit: 'write',
    body: UpdateSmsKeywordRuleDto,
    response: { status: 200, description: 'The rule' },
  })
  update(
    @Param('keyword_rule_id') id: string,
    @ValidBody() body: UpdateSmsKeywordRuleDto,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(SmsKeywordRuleSubjects.Update, { ...body, id }, context);
  }

  @Delete(':keyword_rule_id')
  @HttpCode(204)
  @Route({
    ...rules,
    summary: 'Delete a workspace rule: the default for its operation and country applies again',
    role: 'write',
    rateLimit: 'write',
    response: { status: 204, description: 'Deleted' },
  })
  async remove(@Param('keyword_rule_id') id: string, @CallContext() context: RequestContext) {
    await this.services.send(SmsKeywordRuleSubjects.Delete, { id }, context);
  }
}
