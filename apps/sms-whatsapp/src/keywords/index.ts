export { SmsKeywordsModule } from './keywords.module';
export { InboundKeywordRules } from './inbound-keyword-rules';
export { keywordKey } from './keyword-text';
export { SYSTEM_KEYWORD_RULES, COVERED_COUNTRIES } from './system-keyword-rules';
