import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '@switchboard/persistence';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { InboundForRules, InboundRules, KeywordReply } from '../inbound/inbound-rules';
import { SmsSuppressionsService } from '../suppressions';
import { matchKeyword, rulesInOrder } from './keyword-precedence';
import { replyTextOf, workspaceView } from './keyword-rule-view';
import { keywordKey } from './keyword-text';
import { KeywordRulesRepository } from './keyword-rules.repository';

const countryOf = (number: string) => parsePhoneNumberFromString(number)?.country ?? null;

/**
 * The keyword rules applied to each inbound SMS, in the transaction that stores it. The whole
 * message is the keyword, as carriers read it (and, for opt-outs only, a short message led or
 * closed by an opt-out word). A STOP opens a `keyword_stop` episode for (originator = our
 * number, destination = the person), or re-asserts the one in force; a START ends the pair's
 * `keyword_stop` episodes; each matched rule answers with its reply (a STOP every time, so a
 * repeated STOP earns another confirmation). A number in a country without default coverage
 * recognises the workspace's `custom` rules and the defaults of the sender's own country only.
 */
@Injectable()
export class InboundKeywordRules implements InboundRules {
  constructor(
    private readonly repository: KeywordRulesRepository,
    private readonly suppressions: SmsSuppressionsService,
  ) {}

  async apply(executor: SqlRunner, inbound: InboundForRules): Promise<KeywordReply[]> {
    if (!keywordKey(inbound.text)) return [];
    const senderCountry = countryOf(inbound.from);
    const rules = await this.repository.forMessage(executor, inbound.workspaceId, {
      number: inbound.to,
      arrivalCountry: inbound.toCountry,
      senderCountry,
    });
    const ordered = rulesInOrder(
      {
        number: inbound.to,
        arrivalCountry: inbound.toCountry,
        senderCountry: senderCountry ?? undefined,
      },
      rules.map(workspaceView),
    );
    const match = matchKeyword(inbound.text, ordered);
    if (!match) return [];
    const pair = {
      workspaceId: inbound.workspaceId,
      originator: inbound.to,
      destination: inbound.from,
      messageId: inbound.messageId,
      at: inbound.receivedAt,
    };
    // A STOP redelivered after the person's later START took effect changes nothing and is not
    // confirmed (a confirmation would tell them the opposite of their state).
    if (
      match.rule.operation === 'stop' &&
      (await this.suppressions.recordKeywordStop(executor, pair)) === 'superseded'
    )
      return [];
    if (match.rule.operation === 'start')
      await this.suppressions.recordKeywordStart(executor, pair);
    const text = replyTextOf(match.rule);
    if (text === null) return [];
    return [{ from: inbound.to, to: inbound.from, text, operation: match.rule.operation }];
  }
}
