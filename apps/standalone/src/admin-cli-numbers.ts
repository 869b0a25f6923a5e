/**
 * The admin CLI's commands for the numbers stock and SMS senders (contract section 9), in the
 * shape admin-cli.ts runs: a path, a body for writes, the options a command needs.
 */
type Values = Record<string, string | boolean | undefined>;

interface NumberCommand {
  method?: 'GET' | 'POST';
  help: string;
  lists?: string;
  path: (values: Values) => string;
  body?: (values: Values) => Record<string, unknown>;
  required: string[];
}

const list = (value: string | boolean | undefined) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    : undefined;

function query(values: Values, extra: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({
    ...extra,
    limit: values.limit as string | undefined,
    starting_after: values['starting-after'] as string | undefined,
  }))
    if (value) params.set(name, value);
  return params.size ? `?${params.toString()}` : '';
}

const senders = (values: Values) =>
  `/admin/v1/workspaces/${encodeURIComponent(String(values.workspace ?? ''))}/sms-senders`;

export const NUMBER_COMMANDS: Record<string, NumberCommand> = {
  'stock-number': {
    help: 'adds a number the operator holds with a carrier to the stock (POST /admin/v1/numbers). The country comes from an E.164 number; a short code (--number-type short_code) names it with --country. A dedicated number goes on sale for workspaces to order; --kind shared --workspace ws_... assigns it to that workspace at once (it cannot release it). Capabilities are comma-separated.',
    path: () => '/admin/v1/numbers',
    body: (v) => ({
      number: v.number,
      number_type: v['number-type'],
      capabilities: list(v.capabilities) ?? [],
      ...(v.kind ? { kind: v.kind } : {}),
      ...(v.country ? { country_code: v.country } : {}),
      ...(v.workspace ? { workspace_id: v.workspace } : {}),
    }),
    required: ['number', 'number-type', 'capabilities'],
  },
  'list-numbers': {
    method: 'GET',
    lists: 'numbers',
    help: 'lists the stock newest first (GET /admin/v1/numbers), each number with the workspace holding it (holder) or -; --available shows only numbers on sale, --held only held ones, --country one country.',
    path: (v) =>
      `/admin/v1/numbers${query(v, {
        country_code: v.country as string | undefined,
        available: v.available ? 'true' : v.held ? 'false' : undefined,
      })}`,
    required: [],
  },
  'register-sms-sender': {
    help: 'registers an alphanumeric SMS sender for a workspace (POST /admin/v1/workspaces/{id}/sms-senders): 1 to 11 letters, digits and spaces with at least one letter. --categories (comma-separated transactional, marketing, authentication, service) limits what it may send; without it, every category.',
    path: senders,
    body: (v) => ({
      sender: v.sender,
      ...(v.categories ? { categories: list(v.categories) } : {}),
    }),
    required: ['workspace', 'sender'],
  },
  'list-sms-senders': {
    method: 'GET',
    lists: 'SMS senders',
    help: "lists a workspace's alphanumeric SMS senders, newest first, with their categories (- = every category).",
    path: (v) => `${senders(v)}${query(v)}`,
    required: ['workspace'],
  },
};

export const NUMBER_OPTIONS = {
  number: { type: 'string' },
  'number-type': { type: 'string' },
  capabilities: { type: 'string' },
  kind: { type: 'string' },
  country: { type: 'string' },
  sender: { type: 'string' },
  categories: { type: 'string' },
  available: { type: 'boolean' },
  held: { type: 'boolean' },
} as const;
