import type {
  AllocatedNumber,
  AvailableNumber,
  NumbersOrder,
  StockedNumber,
} from '@switchboard/contracts';
import type { AllocationRow, OrderRow, StockRow } from './number-rows';

const iso = (value: Date | string): string =>
  (value instanceof Date ? value : new Date(value)).toISOString();
const isoOrNull = (value: Date | string | null): string | null =>
  value === null ? null : iso(value);

/** The SDK's `Number`; no country served here asks for ownership paperwork. */
export function toAllocatedNumber(row: AllocationRow): AllocatedNumber {
  return {
    id: row.id,
    kind: row.kind,
    number: row.number,
    country_code: row.country_code,
    number_type: row.number_type,
    capabilities: row.capabilities,
    status: row.status,
    allocated_at: iso(row.allocated_at),
    released_at: isoOrNull(row.released_at),
    ownership: null,
  };
}

export function toAvailableNumber(row: StockRow): AvailableNumber {
  return {
    number: row.number,
    country_code: row.country_code,
    number_type: row.number_type,
    capabilities: row.capabilities,
  };
}

export function toStockedNumber(row: StockRow): StockedNumber {
  return {
    number: row.number,
    country_code: row.country_code,
    number_type: row.number_type,
    capabilities: row.capabilities,
    kind: row.kind,
    created_at: iso(row.created_at),
    holder:
      row.holder_workspace_id && row.holder_number_id && row.holder_allocated_at
        ? {
            workspace_id: row.holder_workspace_id,
            number_id: row.holder_number_id,
            allocated_at: iso(row.holder_allocated_at),
          }
        : null,
  };
}

export function toNumbersOrder(row: OrderRow): NumbersOrder {
  return {
    id: row.id,
    number: row.number,
    country_code: row.country_code,
    number_type: row.number_type,
    status: row.status,
    number_id: row.number_id,
    failure_reason: row.failure_reason,
    completed_at: isoOrNull(row.completed_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}
