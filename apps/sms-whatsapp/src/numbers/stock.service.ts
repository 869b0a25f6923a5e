import { Injectable } from '@nestjs/common';
import { NUMBER_CAPABILITIES, NumbersErrors, SHORT_CODE_TYPES } from '@switchboard/contracts';
import type {
  ErrorDetail,
  ListStockRequest,
  RequestContext,
  StockedNumber,
  StockedNumberRequest,
  StockNumberRequest,
} from '@switchboard/contracts';
import { CursorCodec, IdempotentWrites, newId } from '@switchboard/persistence';
import type { Page } from '@switchboard/persistence';
import { AppError } from '@switchboard/platform';
import { toStockedNumber } from './number.mapper';
import { SqlFilter } from '../database/sql-filter';
import { countryOf, isShortCode, stockableNumber } from './number-spelling';
import { StockRepository } from './stock.repository';
import type { NewStockedNumber, StockedKey } from './stock.repository';

/**
 * The operator's stock: the numbers it holds with its carriers, each on sale (`dedicated`) or
 * assigned by the operator to one workspace (`shared`, which the workspace cannot release).
 */
@Injectable()
export class StockService {
  constructor(
    private readonly repository: StockRepository,
    private readonly writes: IdempotentWrites,
    private readonly cursors: CursorCodec,
  ) {}

  async stock(context: RequestContext, input: StockNumberRequest): Promise<StockedNumber> {
    const number = this.checked(input);
    return this.writes.run(context, async (manager) => {
      if (!(await this.repository.insert(manager, number)))
        throw new AppError(NumbersErrors.NumberAlreadyStocked);
      if (number.kind === 'shared' && input.workspace_id)
        await this.repository.allocate(manager, newId('nda'), input.workspace_id, number);
      const row = await this.repository.find(number, manager);
      if (!row) throw new Error('stocked number vanished inside its transaction');
      return toStockedNumber(row);
    });
  }

  async list(_context: RequestContext, input: ListStockRequest): Promise<Page<StockedNumber>> {
    const filter = new SqlFilter('TRUE', []);
    let country: string | undefined;
    if (input.country_code !== undefined) {
      country = countryOf(input.country_code);
      if (!country)
        throw AppError.validation([
          { param: 'country_code', message: 'must be an ISO 3166-1 alpha-2 country code' },
        ]);
      filter.add('n.country_code = $?', country);
    }
    if (input.available !== undefined)
      filter.add(`(a.id IS NULL AND n.kind = 'dedicated') = $?`, input.available);
    const page = await this.repository.list(
      { sql: filter.sql, params: filter.params },
      { country_code: country ?? null, available: input.available ?? null },
      {
        limit: input.limit,
        starting_after: input.starting_after,
        ending_before: input.ending_before,
      },
      this.cursors,
    );
    return { ...page, data: page.data.map(toStockedNumber) };
  }

  /**
   * Takes a number out of stock with its past holdings. A shared number is withdrawn from the
   * workspace the operator assigned it to (which cannot release it: E14002 sends it here); a
   * dedicated one a workspace ordered is refused until that workspace releases it.
   */
  async unstock(context: RequestContext, input: StockedNumberRequest): Promise<null> {
    const number = await this.stockedKey(input);
    return this.writes.run(context, async (manager) => {
      if (!(await this.repository.lock(manager, number)))
        throw new AppError(NumbersErrors.AvailableNumberNotFound);
      const row = await this.repository.find(number, manager);
      if (row?.holder_workspace_id && row.kind !== 'shared')
        throw new AppError(NumbersErrors.StockedNumberHeld);
      await this.repository.delete(manager, number);
      return null;
    });
  }

  /**
   * The stocked number a request names: by `country_code` when given, else the one country the
   * digits are stocked in. A short code stocked in several countries must name one (422).
   */
  private async stockedKey(input: StockedNumberRequest): Promise<StockedKey> {
    if (input.country_code !== undefined) {
      const country = countryOf(input.country_code);
      if (!country)
        throw AppError.validation([
          { param: 'country_code', message: 'must be an ISO 3166-1 alpha-2 country code' },
        ]);
      return { number: input.number, country_code: country };
    }
    const countries = await this.repository.countriesOf(input.number);
    if (countries.length > 1)
      throw AppError.validation([
        {
          param: 'country_code',
          message: `${input.number} is stocked in ${countries.join(' and ')}: name the country`,
        },
      ]);
    if (!countries.length) throw new AppError(NumbersErrors.AvailableNumberNotFound);
    return { number: input.number, country_code: countries[0] };
  }

  /** The number as stored, or a 422 naming every problem of the request. */
  private checked(input: StockNumberRequest): NewStockedNumber {
    const problems: ErrorDetail[] = [];
    const kind = input.kind ?? 'dedicated';
    const shortCode = SHORT_CODE_TYPES.includes(input.number_type);
    let number: { number: string; country_code: string } | undefined;
    if (shortCode) {
      const country = input.country_code ? countryOf(input.country_code) : undefined;
      if (!isShortCode(input.number))
        problems.push({ param: 'number', message: 'a short code is 3 to 8 digits, without +' });
      if (!country)
        problems.push({
          param: 'country_code',
          message: 'a short code needs the ISO 3166-1 alpha-2 code of its country',
        });
      if (country && isShortCode(input.number))
        number = { number: input.number, country_code: country };
    } else {
      number = stockableNumber(input.number);
      if (!number)
        problems.push({
          param: 'number',
          message: 'must be a possible phone number in E.164 (+ and the country code, digits only)',
        });
      else if (input.country_code != null && countryOf(input.country_code) !== number.country_code)
        problems.push({
          param: 'country_code',
          message: `the number belongs to ${number.country_code}; leave country_code out`,
        });
    }
    const unknown = input.capabilities.filter(
      (capability) => !(NUMBER_CAPABILITIES as readonly string[]).includes(capability),
    );
    if (unknown.length)
      problems.push({ param: 'capabilities', message: `unknown: ${unknown.join(', ')}` });
    if (kind === 'shared' && !input.workspace_id)
      problems.push({
        param: 'workspace_id',
        message: 'a shared number is assigned to a workspace when stocked: name it',
      });
    if (kind === 'dedicated' && input.workspace_id)
      problems.push({
        param: 'workspace_id',
        message: 'only a shared number is assigned by the operator; a dedicated one is ordered',
      });
    if (problems.length || !number) throw AppError.validation(problems);
    return {
      ...number,
      number_type: input.number_type,
      capabilities: [...new Set(input.capabilities)].sort(),
      kind,
    };
  }
}
