import { Injectable } from '@nestjs/common';
import { SmsRulesErrors } from '@switchboard/contracts';
import type {
  CreateSmsKeywordRuleRequest,
  ErrorDetail,
  ListSmsKeywordRulesRequest,
  RequestContext,
  SmsKeywordRule,
  SmsKeywordRuleList,
  UpdateSmsKeywordRuleRequest,
} from '@switchboard/contracts';
import { IdempotentWrites, newId } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { senderForm } from '../suppressions';
import { keywordConflict, withoutInherited } from './keyword-conflicts';
import type { RuleScope } from './keyword-conflicts';
import { allRulesInOrder, rulesInOrder } from './keyword-precedence';
import { defaultFor, systemView, toKeywordRuleDto, workspaceView } from './keyword-rule-view';
import { isOperation, parseKeywords, parseReply } from './keyword-rule-input';
import { KeywordRulesRepository } from './keyword-rules.repository';
import { resolveRuleScope } from './keyword-rule-scope';
import { systemRuleById } from './system-keyword-rules';

/** Workspace keyword rules (`skw_`) beside the shipped defaults (`sks_`, read-only). */
@Injectable()
export class KeywordRulesService {
  constructor(
    private readonly repository: KeywordRulesRepository,
    private readonly writes: IdempotentWrites,
  ) {}

  /** Everything that applies, most specific first; with `number`, in evaluation order. */
  async list(
    context: RequestContext,
    input: ListSmsKeywordRulesRequest,
  ): Promise<SmsKeywordRuleList> {
    const workspaceId = workspaceOf(context);
    const views = (await this.repository.list(workspaceId)).map(workspaceView);
    const country = input.country?.toUpperCase();
    let ordered = allRulesInOrder(views);
    if (input.number !== undefined) {
      const number = senderForm(input.number) ?? input.number;
      const held = await this.repository.heldNumber(workspaceId, number, country ?? null);
      const arrivalCountry = held?.country_code ?? parsePhoneNumberFromString(number)?.country;
      ordered = rulesInOrder(
        { number, arrivalCountry, senderCountry: input.from_country?.toUpperCase() },
        views,
      );
    }
    const data = ordered
      .filter((rule) => country === undefined || rule.country === country || rule.country === null)
      .filter((rule) => input.operation === undefined || rule.operation === input.operation)
      .filter((rule) => input.scope === undefined || rule.scope === input.scope)
      .map(toKeywordRuleDto);
    return { data };
  }

  async get(context: RequestContext, id: string): Promise<SmsKeywordRule> {
    const system = systemRuleById(id);
    if (system) return toKeywordRuleDto(systemView(system));
    const row = await this.repository.find(workspaceOf(context), id);
    if (!row) throw new AppError(SmsRulesErrors.SmsKeywordRuleNotFound, { param: 'id' });
    return toKeywordRuleDto(workspaceView(row));
  }

  async create(
    context: RequestContext,
    input: CreateSmsKeywordRuleRequest,
  ): Promise<SmsKeywordRule> {
    const workspaceId = workspaceOf(context);
    const problems: ErrorDetail[] = [];
    if (!isOperation(input.operation)) {
      throw AppError.validation([
        { param: 'operation', message: 'must be one of stop, start, help, info, confirm, custom' },
      ]);
    }
    const keywords = parseKeywords(input.keywords, problems);
    return this.writes.run(context, async (manager) => {
      const scope = await resolveRuleScope(manager, this.repository, workspaceId, input, problems);
      const suffix = scope
        ? (defaultFor(scope.operation, scope.country, scope.language)?.replySuffix ?? null)
        : null;
      const reply = parseReply(input, suffix, problems);
      if (scope && !defaultFor(scope.operation, scope.country, scope.language) && !keywords?.length)
        problems.push({
          param: 'keywords',
          message: `is required for a ${scope.operation} rule, which inherits no keywords`,
        });
      if (problems.length > 0 || !scope) throw AppError.validation(problems);
      await this.repository.lockWorkspace(manager, workspaceId);
      const existing = (await this.repository.list(workspaceId, manager)).map(workspaceView);
      const twin = existing.find(
        (rule) =>
          rule.operation === scope.operation &&
          rule.country === scope.country &&
          rule.language === scope.language &&
          rule.number === scope.number,
      );
      if (twin)
        throw new AppError(SmsRulesErrors.SmsKeywordConflict, {
          param: 'operation',
          message: `Rule ${twin.id} already is the workspace's ${scope.operation} rule for ${scope.number ?? scope.country ?? 'every country'}; change it instead.`,
        });
      const own = withoutInherited(scope, keywords ?? []);
      this.assertNoConflict(scope, own, existing);
      const row = await this.repository.insert(manager, {
        id: newId('skw'),
        workspace_id: workspaceId,
        ...scope,
        keywords: own,
        reply: reply?.text ?? null,
        selfManaged: reply?.selfManaged ?? false,
      });
      return toKeywordRuleDto(workspaceView(row));
    });
  }

  async update(
    context: RequestContext,
    input: UpdateSmsKeywordRuleRequest,
  ): Promise<SmsKeywordRule> {
    const workspaceId = workspaceOf(context);
    if (systemRuleById(input.id))
      throw new AppError(SmsRulesErrors.SmsSystemRuleReadOnly, { param: 'id' });
    return this.writes.run(context, async (manager) => {
      await this.repository.lockWorkspace(manager, workspaceId);
      const row = await this.repository.find(workspaceId, input.id, manager);
      if (!row) throw new AppError(SmsRulesErrors.SmsKeywordRuleNotFound, { param: 'id' });
      const problems: ErrorDetail[] = [];
      const scope: RuleScope = { ...row };
      const suffix = defaultFor(row.operation, row.country, row.language)?.replySuffix ?? null;
      const parsed = parseKeywords(input.keywords, problems);
      const reply = parseReply(input, suffix, problems);
      if (
        parsed !== undefined &&
        parsed.length === 0 &&
        !defaultFor(row.operation, row.country, row.language)
      )
        problems.push({
          param: 'keywords',
          message: `cannot be empty on a ${row.operation} rule, which inherits no keywords`,
        });
      if (problems.length > 0) throw AppError.validation(problems);
      const keywords = parsed === undefined ? undefined : withoutInherited(scope, parsed);
      if (keywords) {
        const existing = (await this.repository.list(workspaceId, manager)).map(workspaceView);
        this.assertNoConflict(scope, keywords, existing);
      }
      const updated = await this.repository.update(manager, workspaceId, input.id, {
        keywords,
        reply,
      });
      if (!updated) throw new AppError(SmsRulesErrors.SmsKeywordRuleNotFound, { param: 'id' });
      return toKeywordRuleDto(workspaceView(updated));
    });
  }

  /** Deletes a workspace rule: the default for its operation and country applies again at once. */
  async delete(context: RequestContext, id: string): Promise<null> {
    const workspaceId = workspaceOf(context);
    if (systemRuleById(id))
      throw new AppError(SmsRulesErrors.SmsSystemRuleReadOnly, { param: 'id' });
    return this.writes.run(context, async (manager) => {
      if (!(await this.repository.delete(manager, workspaceId, id)))
        throw new AppError(SmsRulesErrors.SmsKeywordRuleNotFound, { param: 'id' });
      return null;
    });
  }

  private assertNoConflict(
    scope: RuleScope,
    keywords: string[],
    existing: ReturnType<typeof workspaceView>[],
  ) {
    const conflict = keywordConflict(scope, keywords, existing);
    if (conflict)
      throw new AppError(SmsRulesErrors.SmsKeywordConflict, {
        param: 'keywords',
        message: conflict.message,
      });
  }
}
