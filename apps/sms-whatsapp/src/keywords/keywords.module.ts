import { Module } from '@nestjs/common';
import { INBOUND_RULES } from '../inbound/inbound-rules';
import { SmsSuppressionsModule } from '../suppressions';
import { InboundKeywordRules } from './inbound-keyword-rules';
import { KeywordRulesHandler } from './keyword-rules.handler';
import { KeywordRulesRepository } from './keyword-rules.repository';
import { KeywordRulesService } from './keyword-rules.service';

/**
 * SMS keyword rules: the API over workspace rules beside the shipped defaults, and the
 * `InboundRules` the inbound pipeline applies (exported under `INBOUND_RULES`).
 */
@Module({
  imports: [SmsSuppressionsModule],
  controllers: [KeywordRulesHandler],
  providers: [
    KeywordRulesRepository,
    KeywordRulesService,
    InboundKeywordRules,
    { provide: INBOUND_RULES, useExisting: InboundKeywordRules },
  ],
  exports: [INBOUND_RULES],
})
export class SmsKeywordsModule {}
