import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { NUMBER_COMMANDS, NUMBER_OPTIONS } from './admin-cli-numbers';

/**
 * `npm run admin -- <command> [--json]`: the operator API from the command line. It talks to a
 * running gateway (SWITCHBOARD_URL, default http://127.0.0.1:$PORT) with PLATFORM_ADMIN_TOKEN,
 * or the token the embedded default stored in DATA_DIR.
 */
const USAGE = `Usage: npm run admin -- <command> [options] [--json]

Commands:
  list-workspaces  [--limit <1-100>] [--starting-after <cursor>]
  list-api-keys    --workspace <ws_id> [--limit <1-100>] [--starting-after <cursor>]
  list-access-keys --workspace <ws_id> [--limit <1-100>] [--starting-after <cursor>]
  list-users       --workspace <ws_id> [--limit <1-100>] [--starting-after <cursor>]
  create-workspace --name <name> [--organization-name <name>] [--region us1|eu1]
  create-api-key   --workspace <ws_id> --role read|write|admin
  create-access-key --workspace <ws_id>
  create-user      --workspace <ws_id> --email <email> --password <password> --role read|write|admin
  stock-number     --number <+E.164 | short code> --number-type <type> --capabilities sms,mms,voice
                   [--country <CC>] [--kind dedicated|shared] [--workspace <ws_id>]
  list-numbers     [--country <CC>] [--available | --held] [--limit <1-100>] [--starting-after <cursor>]
  register-sms-sender --workspace <ws_id> --sender <name> [--categories transactional,marketing,...]
  list-sms-senders --workspace <ws_id> [--limit <1-100>] [--starting-after <cursor>]
  help [<command>] this text (also --help); with a command, what it does first
`;

interface Command {
  method?: 'GET' | 'POST';
  /** What `help <command>` says about it, before the usage. */
  help?: string;
  /** A list: what its rows are called, for the page printed as a table. */
  lists?: string;
  path: (values: Record<string, string | undefined>) => string;
  body?: (values: Record<string, string | undefined>) => Record<string, unknown>;
  required: string[];
}

const COMMANDS: Record<string, Command> = {
  'list-workspaces': {
    method: 'GET',
    lists: 'workspaces',
    path: (v) => `/admin/v1/workspaces${pageQuery(v)}`,
    required: [],
  },
  'list-api-keys': {
    method: 'GET',
    lists: 'API keys',
    path: (v) => `${workspacePath(v)}/api-keys${pageQuery(v)}`,
    required: ['workspace'],
  },
  'list-access-keys': {
    method: 'GET',
    lists: 'access keys',
    path: (v) => `${workspacePath(v)}/access-keys${pageQuery(v)}`,
    required: ['workspace'],
  },
  'list-users': {
    method: 'GET',
    lists: 'users',
    path: (v) => `${workspacePath(v)}/users${pageQuery(v)}`,
    required: ['workspace'],
  },
  'create-workspace': {
    path: () => '/admin/v1/workspaces',
    body: (v) => ({
      name: v.name,
      ...(v['organization-name'] ? { organization_name: v['organization-name'] } : {}),
      ...(v.region ? { region: v.region } : {}),
    }),
    required: ['name'],
  },
  'create-api-key': {
    path: (v) => `${workspacePath(v)}/api-keys`,
    body: (v) => ({ role: v.role }),
    required: ['workspace', 'role'],
  },
  'create-access-key': {
    path: (v) => `${workspacePath(v)}/access-keys`,
    body: () => ({}),
    required: ['workspace'],
  },
  'create-user': {
    path: (v) => `${workspacePath(v)}/users`,
    body: (v) => ({ email: v.email, password: v.password, role: v.role }),
    required: ['workspace', 'email', 'password', 'role'],
  },
  ...NUMBER_COMMANDS,
};

function workspacePath(values: Record<string, string | undefined>): string {
  return `/admin/v1/workspaces/${encodeURIComponent(values.workspace ?? '')}`;
}

function pageQuery(values: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  if (values.limit) query.set('limit', values.limit);
  if (values['starting-after']) query.set('starting_after', values['starting-after']);
  return query.size ? `?${query.toString()}` : '';
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function operatorToken(): string {
  if (process.env.PLATFORM_ADMIN_TOKEN) return process.env.PLATFORM_ADMIN_TOKEN;
  const file = join(resolve(process.env.DATA_DIR ?? './.data'), 'admin-token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  return fail(
    'No operator token: set PLATFORM_ADMIN_TOKEN, or run this where `npm start` keeps its .data directory.',
  );
}

const OPTIONS = {
  name: { type: 'string' },
  'organization-name': { type: 'string' },
  region: { type: 'string' },
  workspace: { type: 'string' },
  role: { type: 'string' },
  email: { type: 'string' },
  password: { type: 'string' },
  limit: { type: 'string' },
  'starting-after': { type: 'string' },
  ...NUMBER_OPTIONS,
  json: { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

function parseCommandLine() {
  try {
    return parseArgs({ allowPositionals: true, options: OPTIONS });
  } catch (err) {
    // Node's own text for an unknown option ends in advice with an unbalanced quote.
    const unknown = /^Unknown option '([^']+)'/.exec((err as Error).message);
    return fail(
      `${unknown ? `Unknown option ${unknown[1]}.` : (err as Error).message}\n\n${USAGE}`,
    );
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseCommandLine();
  const name = positionals[0];
  if (values.help || name === 'help') {
    const about = name === 'help' ? COMMANDS[positionals[1] ?? '']?.help : undefined;
    process.stdout.write(about ? `${positionals[1]}: ${about}\n\n${USAGE}` : USAGE);
    return;
  }
  if (!name) fail(`No command given.\n\n${USAGE}`);
  const command = COMMANDS[name];
  if (!command) fail(`Unknown command: ${name}\n\n${USAGE}`);
  const strings = values as Record<string, string | undefined>;
  const missing = command.required.filter((name) => !strings[name]);
  if (missing.length) fail(`Missing ${missing.map((name) => `--${name}`).join(', ')}\n\n${USAGE}`);
  const base = process.env.SWITCHBOARD_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8080}`;
  const response = await fetch(`${base}${command.path(strings)}`, {
    method: command.method ?? 'POST',
    headers: {
      authorization: `Bearer ${operatorToken()}`,
      ...(command.body ? { 'content-type': 'application/json' } : {}),
    },
    ...(command.body ? { body: JSON.stringify(command.body(strings)) } : {}),
  }).catch(() => fail(`Cannot reach Switchboard at ${base}: is it running (npm start)?`));
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok) {
    const error = body.error as {
      code: string;
      message: string;
      details?: Array<{ param: string; message: string }>;
    };
    if (values.json) process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    fail(
      `${response.status} ${error.code}: ${error.message}${(error.details ?? []).map((d) => `\n  ${d.param}: ${d.message}`).join('')}`,
    );
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    return;
  }
  if (command.lists) {
    process.stdout.write(describePage(body as unknown as ListPage, command.lists, name, strings));
    return;
  }
  const secrets = JSON.stringify(body).includes('"secret"');
  process.stdout.write(
    `${describe(body)}\n${secrets ? '(secrets are shown once; store them now)\n' : ''}`,
  );
}

/** A value in a table cell: null (not revoked, no name) is shown as '-'. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

interface ListPage {
  data: Array<Record<string, unknown>>;
  next_cursor: string | null;
}

/** A page as a table, one row per item, and how to get the next page when there is one. */
function describePage(
  page: ListPage,
  what: string,
  command: string,
  values: Record<string, string | undefined>,
): string {
  if (page.data.length === 0) return `No ${what}${page.next_cursor ? ' on this page' : ''}.\n`;
  const columns = Object.keys(page.data[0]);
  const cells = page.data.map((row) => columns.map((column) => cell(row[column])));
  const widths = columns.map((column, i) =>
    Math.max(column.length, ...cells.map((row) => row[i].length)),
  );
  const line = (values: string[]) =>
    values
      .map((value, i) => value.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  const next = [
    `npm run admin -- ${command}`,
    ...(['workspace', 'country', 'limit'] as const).flatMap((option) =>
      values[option] ? [`--${option} ${values[option]}`] : [],
    ),
    ...(['available', 'held'] as const).flatMap((flag) => (values[flag] ? [`--${flag}`] : [])),
    // Joined by `=`: a cursor may begin with `-`, which would read as another option.
    `--starting-after=${page.next_cursor}`,
  ];
  const more = page.next_cursor ? `Next page: ${next.join(' ')}` : 'No more.';
  return `${[line(columns), ...cells.map(line)].join('\n')}\n${page.data.length} ${page.data.length === 1 ? what.replace(/s$/, '') : what} shown. ${more}\n`;
}

function describe(body: Record<string, unknown>, indent = ''): string {
  return Object.entries(body)
    .map(([key, value]) =>
      typeof value === 'object' && value !== null
        ? `${indent}${key}:\n${describe(value as Record<string, unknown>, `${indent}  `)}`
        : `${indent}${key}: ${String(value)}`,
    )
    .join('\n');
}

void main();
