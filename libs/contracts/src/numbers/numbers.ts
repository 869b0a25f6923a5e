/**
 * Numbers (the SDK's `bird.numbers`, `.available`, `.orders`): the numbers the operator stocks
 * with its carriers, a workspace's holdings of them (`Number`, id `nda_`) and the orders that
 * allocate them (`NumbersOrder`, id `nor_`). Served by the sms-whatsapp service.
 */
export const NumbersSubjects = {
  ListNumbers: 'sms_whatsapp.number.list',
  GetNumber: 'sms_whatsapp.number.get',
  ReleaseNumber: 'sms_whatsapp.number.release',
  ListAvailable: 'sms_whatsapp.available_number.list',
  GetAvailable: 'sms_whatsapp.available_number.get',
  CreateOrder: 'sms_whatsapp.number_order.create',
  ListOrders: 'sms_whatsapp.number_order.list',
  GetOrder: 'sms_whatsapp.number_order.get',
  /** Operator: the stock. */
  StockNumber: 'sms_whatsapp.stocked_number.create',
  ListStock: 'sms_whatsapp.stocked_number.list',
  UnstockNumber: 'sms_whatsapp.stocked_number.delete',
} as const;

/** Physical types the operator may stock; the SDK's enum is open, readers accept others. */
export const NUMBER_TYPES = [
  'mobile',
  'local',
  'national',
  'short_code',
  'short_code_fteu',
  'toll_free',
] as const;
export type NumberType = (typeof NUMBER_TYPES)[number] | (string & {});
/** Short codes are stored as their bare digits; every other type in E.164. */
export const SHORT_CODE_TYPES: readonly string[] = ['short_code', 'short_code_fteu'];

export const NUMBER_CAPABILITIES = ['sms', 'mms', 'voice'] as const;
export type NumberCapability = (typeof NUMBER_CAPABILITIES)[number] | (string & {});

/** `dedicated`: ordered by the workspace, releasable. `shared`: assigned by the operator, not. */
export const NUMBER_KINDS = ['dedicated', 'shared'] as const;
export type NumberKind = (typeof NUMBER_KINDS)[number];

export type AllocatedNumberStatus = 'active' | 'pending_compliance' | 'released';

/** The SDK's `Number`: a workspace's holding of a number. */
export interface AllocatedNumber {
  id: string;
  kind: NumberKind;
  number: string;
  country_code: string;
  number_type: NumberType;
  capabilities: NumberCapability[];
  status: AllocatedNumberStatus;
  allocated_at: string;
  released_at: string | null;
  /** No country served here asks for ownership paperwork: always null. */
  ownership: null;
}

export interface AvailableNumber {
  number: string;
  country_code: string;
  number_type: NumberType;
  capabilities: NumberCapability[];
}

export const NUMBER_ORDER_STATUSES = [
  'charging',
  'ordering',
  'pending',
  'completed',
  'failed',
] as const;
export type NumbersOrderStatus = (typeof NUMBER_ORDER_STATUSES)[number] | (string & {});

export interface NumbersOrder {
  id: string;
  number: string;
  country_code: string;
  number_type: NumberType;
  status: NumbersOrderStatus;
  number_id: string | null;
  failure_reason: string | null;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Filters shared by the workspace's list and the available list (validated by the gateway). */
interface NumberFilters {
  country_code?: string;
  number_type?: string;
  /** Digits only; national digits after the dial code with `country_code`. */
  prefix?: string;
  /** Every one must be a capability of the number. */
  capabilities?: string[];
}

interface CursorRequest {
  limit: number;
  starting_after?: string;
  ending_before?: string;
}

export interface ListNumbersRequest extends NumberFilters, CursorRequest {
  /** Any spelling of one full number, or a short code's digits (with `country_code`). */
  number?: string;
}

export interface ListAvailableNumbersRequest extends NumberFilters, CursorRequest {
  country_code: string;
}

export interface ListNumbersOrdersRequest extends CursorRequest {
  status?: string;
}

export interface CreateNumbersOrderRequest {
  number: string;
  /** Which country's, for a short code on sale in several. */
  country_code?: string;
}

export interface NumberIdRequest {
  number_id: string;
}
export interface AvailableNumberRequest {
  number: string;
  /** Which country's, for a short code on sale in several. */
  country_code?: string;
}
export interface NumbersOrderIdRequest {
  order_id: string;
}

/** A number in the operator's stock, with the workspace holding it (if any). */
export interface StockedNumber {
  number: string;
  country_code: string;
  number_type: NumberType;
  capabilities: NumberCapability[];
  kind: NumberKind;
  created_at: string;
  holder: { workspace_id: string; number_id: string; allocated_at: string } | null;
}

/**
 * `POST /admin/v1/numbers`. A short code names its `country_code`; for any other type the
 * country comes from the number. A `shared` number is assigned at once to `workspace_id`.
 */
export interface StockNumberRequest {
  number: string;
  number_type: string;
  capabilities: string[];
  kind?: NumberKind;
  country_code?: string;
  workspace_id?: string;
}

export interface ListStockRequest extends CursorRequest {
  country_code?: string;
  /** `true`: only numbers no workspace holds; `false`: only held ones. */
  available?: boolean;
}

export interface StockedNumberRequest {
  number: string;
  /** Which country's, for a short code stocked in several; optional otherwise. */
  country_code?: string;
}
