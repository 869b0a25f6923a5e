import { Injectable } from '@nestjs/common';
import { NumbersErrors } from '@switchboard/contracts';
import type {
  AllocatedNumber,
  AvailableNumber,
  AvailableNumberRequest,
  CreateNumbersOrderRequest,
  ListAvailableNumbersRequest,
  ListNumbersOrdersRequest,
  ListNumbersRequest,
  NumbersOrder,
  RequestContext,
} from '@switchboard/contracts';
import { CursorCodec, IdempotentWrites, newId } from '@switchboard/persistence';
import type { Page } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { toAllocatedNumber, toAvailableNumber, toNumbersOrder } from './number.mapper';
import { numberFilters } from './number-filters';
import { countryOf, isShortCode, numberCandidates } from './number-spelling';
import { NumbersRepository } from './numbers.repository';
import type { Orderable } from './numbers.repository';

const pageOf = (input: { limit: number; starting_after?: string; ending_before?: string }) => ({
  limit: input.limit,
  starting_after: input.starting_after,
  ending_before: input.ending_before,
});

/**
 * A workspace's numbers: what it holds, the stock on sale, the orders that allocate stock at
 * once, and the release that hands a dedicated number back to stock.
 */
@Injectable()
export class NumbersService {
  constructor(
    private readonly repository: NumbersRepository,
    private readonly writes: IdempotentWrites,
    private readonly cursors: CursorCodec,
  ) {}

  async list(context: RequestContext, input: ListNumbersRequest): Promise<Page<AllocatedNumber>> {
    const workspaceId = workspaceOf(context);
    const { filter, bound } = numberFilters(
      'a.workspace_id = $1 AND a.released_at IS NULL',
      [workspaceId],
      input,
    );
    const page = await this.repository.listAllocations(
      filter,
      { workspaceId, ...bound },
      pageOf(input),
      this.cursors,
    );
    return { ...page, data: page.data.map(toAllocatedNumber) };
  }

  async get(context: RequestContext, numberId: string): Promise<AllocatedNumber> {
    const row = await this.repository.findAllocation(workspaceOf(context), numberId);
    if (!row) throw new AppError(NumbersErrors.NumberNotFound);
    return toAllocatedNumber(row);
  }

  /** Irreversible: the holding ends (`released`) and the number is on sale again. */
  async release(context: RequestContext, numberId: string): Promise<null> {
    const workspaceId = workspaceOf(context);
    return this.writes.run(context, async (manager) => {
      const row = await this.repository.findAllocation(workspaceId, numberId, manager, true);
      if (!row) throw new AppError(NumbersErrors.NumberNotFound);
      if (row.kind === 'shared') throw new AppError(NumbersErrors.SharedNumberNotReleasable);
      await this.repository.release(manager, row.id);
      return null;
    });
  }

  async listAvailable(
    context: RequestContext,
    input: ListAvailableNumbersRequest,
  ): Promise<Page<AvailableNumber>> {
    workspaceOf(context);
    const { filter, bound } = numberFilters('TRUE', [], input);
    const page = await this.repository.listAvailable(filter, bound, pageOf(input), this.cursors);
    return { ...page, data: page.data.map(toAvailableNumber) };
  }

  async getAvailable(
    context: RequestContext,
    input: AvailableNumberRequest,
  ): Promise<AvailableNumber> {
    workspaceOf(context);
    const row = await this.repository.findAvailable(await this.orderable(input));
    if (!row) throw new AppError(NumbersErrors.AvailableNumberNotFound);
    return toAvailableNumber(row);
  }

  /** Allocates the number at once (201 `completed`), or E14001 when it is not on sale. */
  async order(context: RequestContext, input: CreateNumbersOrderRequest): Promise<NumbersOrder> {
    const workspaceId = workspaceOf(context);
    const wanted = await this.orderable(input);
    return this.writes.run(context, async (manager) => {
      const row = await this.repository.allocateAndOrder(
        manager,
        { allocationId: newId('nda'), orderId: newId('nor'), workspaceId },
        wanted,
      );
      if (!row) throw new AppError(NumbersErrors.NumberNotAvailable);
      return toNumbersOrder(row);
    });
  }

  async listOrders(
    context: RequestContext,
    input: ListNumbersOrdersRequest,
  ): Promise<Page<NumbersOrder>> {
    const page = await this.repository.listOrders(
      workspaceOf(context),
      input.status,
      pageOf(input),
      this.cursors,
    );
    return { ...page, data: page.data.map(toNumbersOrder) };
  }

  async getOrder(context: RequestContext, orderId: string): Promise<NumbersOrder> {
    const row = await this.repository.findOrder(workspaceOf(context), orderId);
    if (!row) throw new AppError(NumbersErrors.NumberOrderNotFound);
    return toNumbersOrder(row);
  }

  /**
   * The stored spellings an order (or an availability check) may mean (E.164, or a short code),
   * in the country it names. A short code on sale in several countries must name one (422).
   */
  private async orderable(input: { number: string; country_code?: string }): Promise<Orderable> {
    const candidates = numberCandidates(input.number, undefined, 'number');
    if (!Array.isArray(candidates)) throw AppError.validation([candidates]);
    const digits = input.number.trim();
    const numbers = isShortCode(digits) ? [...candidates, digits] : candidates;
    if (input.country_code !== undefined) {
      const country = countryOf(input.country_code);
      if (!country)
        throw AppError.validation([
          { param: 'country_code', message: 'must be an ISO 3166-1 alpha-2 country code' },
        ]);
      return { numbers, country };
    }
    if (isShortCode(digits)) {
      const countries = await this.repository.countriesOnSale(digits);
      if (countries.length > 1)
        throw AppError.validation([
          {
            param: 'country_code',
            message: `${digits} is on sale in ${countries.join(' and ')}: name the country`,
          },
        ]);
    }
    return { numbers, country: null };
  }
}
