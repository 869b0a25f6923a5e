import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

// The built CLI (`npm test` builds dist/ before jest runs), as `npm run admin` runs it.
const CLI = join(__dirname, '../../../dist/apps/standalone/src/admin-cli.js');

function admin(...args: string[]) {
  const run = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, PLATFORM_ADMIN_TOKEN: 'unused', SWITCHBOARD_URL: 'http://127.0.0.1:9' },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('admin CLI', () => {
  it('prints its usage and exits 0 for --help, help and help <command>', () => {
    for (const args of [['--help'], ['help'], ['help', 'create-user']]) {
      const run = admin(...args);
      expect(run.status).toBe(0);
      for (const command of ['list-workspaces', 'list-api-keys', 'list-access-keys', 'list-users'])
        expect(run.stdout).toContain(command);
      expect(run.stderr).toBe('');
    }
  });

  it('takes a cursor that begins with "-" in the form its next-page hint prints', () => {
    // Cursors are base64url: one in 64 begins with "-". The run then fails only for want of a
    // platform to ask (port 9), not on its arguments.
    const run = admin('list-workspaces', '--starting-after=-Px0fwG46hQ');
    expect(run.status).not.toBe(0);
    expect(run.stderr).not.toContain('ambiguous');
    expect(run.stderr).not.toContain('Usage:');
  });

  it('explains a numbers or senders command with help <command>, before the usage', () => {
    for (const command of [
      'stock-number',
      'list-numbers',
      'register-sms-sender',
      'list-sms-senders',
    ]) {
      const run = admin('help', command);
      expect(run.status).toBe(0);
      expect(run.stdout.startsWith(`${command}: `)).toBe(true);
      expect(run.stdout).toContain('Usage: npm run admin');
    }
    expect(admin('help', 'stock-number').stdout).toContain('--kind shared --workspace');
  });

  it('names the options a numbers or senders command is missing', () => {
    expect(admin('stock-number', '--number', '+447700900201')).toMatchObject({
      status: 1,
      stderr: expect.stringContaining('Missing --number-type, --capabilities'),
    });
    expect(admin('register-sms-sender', '--workspace', 'ws_1')).toMatchObject({
      status: 1,
      stderr: expect.stringContaining('Missing --sender'),
    });
    expect(admin('list-sms-senders')).toMatchObject({
      status: 1,
      stderr: expect.stringContaining('Missing --workspace'),
    });
  });

  it('names an unknown command, a missing command and an unknown option, and exits 1', () => {
    expect(admin('frobnicate')).toMatchObject({
      status: 1,
      stderr: expect.stringContaining('Unknown command: frobnicate'),
    });
    expect(admin()).toMatchObject({
      status: 1,
      stderr: expect.stringContaining('No command given'),
    });
    const option = admin('list-workspaces', '--bogus');
    expect(option.status).toBe(1);
    expect(option.stderr).toContain('Unknown option --bogus.\n');
    expect(option.stderr).not.toContain('    at ');
  });

  it('names the options a command is missing', () => {
    expect(admin('list-users')).toMatchObject({
      status: 1,
      stderr: expect.stringContaining('Missing --workspace'),
    });
    expect(admin('create-user', '--workspace', 'ws_1')).toMatchObject({
      status: 1,
      stderr: expect.stringContaining('Missing --email, --password, --role'),
    });
  });
});
