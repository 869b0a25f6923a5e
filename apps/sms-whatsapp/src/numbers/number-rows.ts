/** A workspace's holding joined with the stocked number it holds. */
export interface AllocationRow {
  id: string;
  workspace_id: string;
  kind: 'dedicated' | 'shared';
  number: string;
  country_code: string;
  number_type: string;
  capabilities: string[];
  status: 'active' | 'pending_compliance' | 'released';
  allocated_at: Date | string;
  released_at: Date | string | null;
}

export interface StockRow {
  number: string;
  country_code: string;
  number_type: string;
  capabilities: string[];
  kind: 'dedicated' | 'shared';
  created_at: Date | string;
  holder_workspace_id: string | null;
  holder_number_id: string | null;
  holder_allocated_at: Date | string | null;
}

export interface OrderRow {
  id: string;
  workspace_id: string;
  number: string;
  country_code: string;
  number_type: string;
  status: string;
  number_id: string | null;
  failure_reason: string | null;
  completed_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}
