#!/usr/bin/env node
// `npm run test:readme`: runs the README's commands in order on a fresh clone of this checkout's
// HEAD, under a mode-700 directory (as a clone under /root is), and checks that each does what the
// README says. The commands are read from the README's fenced blocks, so the check cannot drift:
// `sh` blocks run line by line (servers in the background, `# -> ...` lines are expectations),
// the first `ts` block (email), the broadcast one, the SMS one and the WhatsApp one run with the
// official SDK. Not run: `npm test` (CI
// runs it) and the webhook receiver snippet (its rawBody and req belong to a receiver). Exit 1 on
// the first miss.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const keep = process.argv.includes('--keep');
// For working on this script: this checkout's node_modules instead of npm install in the clone.
const linkNodeModules = process.argv.includes('--link-node-modules');
const say = (line) => process.stdout.write(`${line}\n`);
class Miss extends Error {}
const fail = (line) => {
  say(`FAIL ${line}`);
  throw new Miss(line);
};
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// ---- the README, as commands ------------------------------------------------------------------

/** [{lang, commands: [{line, expect}]}] from the fenced blocks, continuation lines joined. */
function readmeBlocks(text) {
  const blocks = [];
  for (const [, lang, body] of text.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)) {
    if (lang !== 'sh') {
      blocks.push({ lang, source: body });
      continue;
    }
    const commands = [];
    for (const line of body.replace(/\\\n\s*/g, ' ').split('\n')) {
      if (line.startsWith('# ->')) commands.at(-1).expect = line.slice(4).trim();
      else if (line.trim() && !line.startsWith('#'))
        commands.push({ line: line.replace(/\s{2,}#\s.*$/, '').trim() });
    }
    blocks.push({ lang, commands });
  }
  return blocks;
}

/** The top-level keys and literal string values of the JSON skeleton in an expectation. */
function skeleton(expect) {
  const start = expect.indexOf('{');
  const fields = {};
  if (start < 0) return fields;
  let depth = 0;
  for (let i = start; i < expect.length; i++) {
    const char = expect[i];
    if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      if (--depth === 0) break;
    } else if (depth === 1 && char === '"') {
      const match = /^"(\w+)":("([^"]*)")?/.exec(expect.slice(i));
      if (match) {
        fields[match[1]] = match[3];
        i += match[0].length - 1;
      }
    }
  }
  return fields;
}

// ---- processes --------------------------------------------------------------------------------

async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((done) => server.once('listening', done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

class Background {
  constructor(name, command, cwd, env, ready) {
    this.name = name;
    this.output = '';
    this.child = spawn('bash', ['-c', command], { cwd, env, detached: true });
    for (const stream of [this.child.stdout, this.child.stderr])
      stream.on('data', (chunk) => (this.output += chunk.toString()));
    // npm re-raises the SIGINT its script got once the script has ended: that is a clean stop.
    this.exited = new Promise((done) =>
      this.child.once('exit', (code, signal) => done(signal === 'SIGINT' ? 0 : code)),
    );
    this.ready = this.waitFor(ready, 240_000);
  }

  async waitFor(pattern, ms = 30_000) {
    for (const end = Date.now() + ms; Date.now() < end; await sleep(200)) {
      if (pattern.test(this.output)) return;
      if (this.child.exitCode !== null) break;
    }
    fail(`${this.name}: no ${pattern} in its output:\n${this.output.slice(-2000)}`);
  }

  /** Ctrl-C as a terminal sends it: SIGINT to the whole process group. */
  async stop() {
    try {
      process.kill(-this.child.pid, 'SIGINT');
    } catch {
      // already gone
    }
    return this.exited;
  }
}

// ---- the run ----------------------------------------------------------------------------------

async function main() {
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  if (execFileSync('git', ['status', '--porcelain', 'README.md'], { cwd: root, encoding: 'utf8' }))
    say('note: README.md has uncommitted changes; the committed one is checked');
  const parent = mkdtempSync(join(tmpdir(), 'readme-check-'));
  chmodSync(parent, 0o700);
  const clone = join(parent, 'switchboard');
  execFileSync('git', ['clone', '--quiet', '--no-checkout', root, clone]);
  execFileSync('git', ['checkout', '--quiet', head], { cwd: clone });
  say(`fresh clone of ${head.slice(0, 12)} in ${clone} (parent mode 700)`);
  const started = Date.now();

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // Free ports in place of the README's (8080, 2525, 5300, 2775, 4100): others may hold those.
  const smtpPort = await freePort();
  const dnsPort = await freePort();
  const smscPort = await freePort();
  const graphPort = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    METRICS_PORT: String(await freePort()),
    DEV_SMTP_PORT: String(smtpPort),
    DEV_DNS_PORT: String(dnsPort),
    DEV_SMSC_PORT: String(smscPort),
    DEV_GRAPH_PORT: String(graphPort),
  };
  delete env.PLATFORM_ADMIN_TOKEN;
  const state = { servers: new Map(), values: {}, moved: [] };
  const substitute = (line) =>
    line
      .replaceAll('http://127.0.0.1:8080', base)
      .replaceAll('127.0.0.1:2525', `127.0.0.1:${smtpPort}`)
      .replaceAll('127.0.0.1:5300', `127.0.0.1:${dnsPort}`)
      .replaceAll('127.0.0.1:2775', `127.0.0.1:${smscPort}`)
      .replaceAll('127.0.0.1:4100', `127.0.0.1:${graphPort}`)
      .replaceAll('ak_...', state.values.accessKey ?? 'ak_...')
      .replaceAll('ws_...', state.values.workspace ?? 'ws_...')
      .replaceAll('bk_us1_...', state.values.key ?? 'bk_us1_...')
      .replaceAll('em_...', state.values.message ?? 'em_...')
      .replaceAll('sms_...', state.values.sms ?? 'sms_...');
  try {
    const blocks = readmeBlocks(readFileSync(join(clone, 'README.md'), 'utf8'));
    const client = blocks.find((block) => block.lang === 'ts')?.source ?? '';
    for (const block of blocks) {
      if (block.lang === 'ts' && block.source === client)
        await runSdk(block.source, clone, env, base, state);
      else if (block.lang === 'ts' && /bird\.sms\./.test(block.source))
        await runSmsSdk(block.source, client, clone, env, base, state);
      else if (block.lang === 'ts' && /bird\.whatsapp\./.test(block.source))
        await runWhatsAppSdk(block.source, client, clone, env, base, state);
      else if (block.lang === 'ts' && /bird\.broadcasts\./.test(block.source))
        await runBroadcastSdk(block.source, client, clone, env, base, state);
      else if (block.lang === 'ts')
        say('skip ts block: a webhook receiver snippet (rawBody, req are its own)');
      if (block.lang === 'ts') continue;
      for (const command of block.commands ?? []) await run(command, clone, env, state, substitute);
    }
    await stopQuietly(state.servers.get('npm start'));
    say(`README check passed in ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    for (const server of state.servers.values()) await server.stop().catch(() => undefined);
    for (const dir of state.moved) rmSync(dir, { recursive: true, force: true });
    if (keep) say(`kept ${parent}`);
    else rmSync(parent, { recursive: true, force: true });
  }
}

async function run(command, cwd, env, state, substitute) {
  const line = substitute(command.line);
  if (line === 'npm test') return say('skip npm test (CI runs it; it takes minutes)');
  if (/(^|\s)npm (start|run dev:\w+)$/.test(line)) {
    if (line.startsWith('npm install && ') && linkNodeModules)
      symlinkSync(realpathSync(join(root, 'node_modules')), join(cwd, 'node_modules'));
    else if (line.startsWith('npm install && ')) runInstall(cwd, env);
    const program = line.replace(/^npm install && /, '');
    const name = /npm start/.test(program) ? 'npm start' : program.match(/npm run (\S+)/)[1];
    const previous = state.servers.get(name);
    if (previous && name === 'npm start') await stopQuietly(previous);
    else if (previous && (await previous.stop()) !== 0) fail(`${name} did not stop cleanly`);
    const ready = {
      'npm start': /Press Ctrl-C to stop/,
      'dev:smtp': /SMTP sink on/,
      'dev:dns': /DNS for your workspace/,
      'dev:smsc': /SMSC on 127\.0\.0\.1:\d+; start Switchboard with SMPP_URL=/,
      'dev:graph': /Graph API stand-in on http:\/\/127\.0\.0\.1:\d+\/v[\d.]+\. Start Switchboard/,
    }[name];
    const server = new Background(name, program, cwd, env, ready);
    state.servers.set(name, server);
    await server.ready;
    const moved = /PostgreSQL data is kept in (\S+) instead/.exec(server.output)?.[1];
    if (moved) state.moved.push(moved);
    return say(`ok   ${line} (running${moved ? `; PostgreSQL data in ${moved}` : ''})`);
  }
  if (line.startsWith('export ')) {
    const [name] = line.slice(7).split('=');
    const value = execFileSync('bash', ['-c', `${line}; printf %s "$${name}"`], {
      cwd,
      env,
      encoding: 'utf8',
    });
    if (!value) fail(`${line}: empty`);
    env[name] = value;
    return say(`ok   ${line}`);
  }
  if (!line.startsWith('curl ')) fail(`no way to check this README command: ${line}`);
  const expect = command.expect ?? '';
  // A GET is read again while what it shows is on its way (delivery takes a moment).
  for (let attempt = 0; ; attempt++) {
    const problem = await curl(line, expect, cwd, env, state);
    if (!problem) break;
    if (/-X POST/.test(line) || attempt >= 60) fail(`${line}\n     ${problem}`);
    await sleep(500);
  }
  if (/the sink prints it/.test(expect)) await sinkPrints(state, '"Hi"');
  if (/the SMSC prints it/.test(expect))
    await smscPrints(state, JSON.parse(/-d '(\{.*\})'/.exec(line)[1]));
  const replay = /the same retry replays with ([\w-]+): (\w+)/.exec(expect);
  if (replay) {
    const again = spawnSync('bash', ['-c', `${line} -i`], { cwd, env, encoding: 'utf8' });
    if (!new RegExp(`^${replay[1]}: ${replay[2]}\\s*$`, 'im').test(again.stdout))
      fail(`the same retry: no ${replay[1]}: ${replay[2]} in\n${again.stdout.slice(0, 800)}`);
  }
  say(`ok   ${line.slice(0, 110)}${expect ? `\n       -> ${expect.slice(0, 100)}` : ''}`);
}

/** The README: "Ctrl-C stops it cleanly". Exit 0, and no warning but where the data is kept. */
async function stopQuietly(server) {
  const code = await server.stop();
  const warnings = server.output
    .split('\n')
    .filter((line) => /"level":(4|5|6)0/.test(line) && !/instead|copied to/.test(line));
  if (code !== 0 || warnings.length)
    fail(`Ctrl-C: npm start exited ${code} with warnings:\n${warnings.join('\n')}`);
  say('ok   Ctrl-C stops npm start cleanly (exit 0, no warning)');
}

function runInstall(cwd, env) {
  for (const round of [1, 2]) {
    const install = spawnSync('npm', ['install'], { cwd, env, encoding: 'utf8' });
    const output = `${install.stdout}${install.stderr}`;
    if (install.status !== 0) fail(`npm install (${round}) exited ${install.status}:\n${output}`);
    if (/EBADENGINE/.test(output)) fail(`npm install (${round}) warns EBADENGINE:\n${output}`);
    const changed = execFileSync('git', ['status', '--porcelain'], { cwd, encoding: 'utf8' });
    if (changed) fail(`npm install (${round}) changed the checkout:\n${changed}`);
  }
  say('ok   npm install (twice): no EBADENGINE, git status clean');
}

async function curl(line, expect, cwd, env, state) {
  const run = spawnSync('bash', ['-c', `${line} -w '\\n%{http_code}'`], {
    cwd,
    env,
    encoding: 'utf8',
  });
  const lines = run.stdout.trimEnd().split('\n');
  const status = Number(lines.pop());
  const text = lines.join('\n');
  const bodyText = text.slice(text.search(/^[[{]/m));
  let body;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return `status ${status}, not JSON: ${text.slice(0, 300)}`;
  }
  const wanted = Number(/^(\d{3})\b/.exec(expect)?.[1] ?? 0);
  if (wanted ? status !== wanted : status >= 400)
    return `status ${status} (expected ${wanted || '< 400'}): ${bodyText.slice(0, 400)}`;
  const headersPart = expect.includes('{') ? expect.slice(0, expect.indexOf('{')) : expect;
  for (const header of headersPart.matchAll(/([A-Z][\w-]+): /g))
    if (!new RegExp(`^${header[1]}:`, 'im').test(text)) return `no ${header[1]} header`;
  const top = Array.isArray(body.data) && /"data":\[\{/.test(expect) ? body.data[0] : body;
  const fields = /"data":\[\{/.test(expect)
    ? skeleton(expect.slice(expect.indexOf('[') + 1))
    : skeleton(expect);
  for (const [key, value] of Object.entries(fields)) {
    if (!top || !(key in top)) return `no "${key}" in ${bodyText.slice(0, 400)}`;
    const literal = value?.replace(/\.\.\.$/, '');
    if (value !== undefined && literal && !String(top[key]).startsWith(literal))
      return `"${key}" is ${JSON.stringify(top[key])}, the README says "${value}"`;
  }
  if (body.workspace?.id && body.api_key?.secret) {
    state.values.workspace = body.workspace.id;
    state.values.key = body.api_key.secret;
    state.values.accessKey = body.access_key?.secret;
  }
  if (typeof body.id === 'string' && body.id.startsWith('em_')) state.values.message = body.id;
  if (typeof body.id === 'string' && body.id.startsWith('sms_')) state.values.sms = body.id;
  return undefined;
}

async function sinkPrints(state, text) {
  const sink = state.servers.get('dev:smtp') ?? fail('no SMTP sink running');
  await sink.waitFor(new RegExp(`mail from .*${text}`));
}

/** The SMSC printed the message `sent` (the JSON of a send: to, from, text) as it arrived. */
async function smscPrints(state, sent) {
  const smsc = state.servers.get('dev:smsc') ?? fail('no dev SMSC running');
  const quote = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await smsc.waitFor(
    new RegExp(
      `SMS from ${quote(sent.from)} to ${quote(sent.to)} \\(1 part, GSM-7\\): ${quote(JSON.stringify(sent.text))}`,
    ),
  );
}

/** Runs `source` (with the names it declares printed as JSON at the end) under the README's key. */
function runTs(source, cwd, env, base, state) {
  const names = [...source.matchAll(/^const (\w+) = /gm)].map((m) => m[1]);
  const script = `${source
    .replace(/process\.env\.BIRD_API_KEY!/, 'process.env.BIRD_API_KEY')
    .replaceAll(
      'http://127.0.0.1:8080',
      base,
    )}\nconsole.log(JSON.stringify({ ${names.join(', ')} }));\n`;
  writeFileSync(join(cwd, 'readme-sdk.mjs'), script);
  const sdk = spawnSync(process.execPath, ['readme-sdk.mjs'], {
    cwd,
    env: { ...env, BIRD_API_KEY: state.values.key },
    encoding: 'utf8',
  });
  rmSync(join(cwd, 'readme-sdk.mjs'));
  if (sdk.status !== 0) fail(`the SDK example exited ${sdk.status}:\n${sdk.stderr.slice(-2000)}`);
  return JSON.parse(sdk.stdout.trim().split('\n').at(-1));
}

/** The templates and broadcasts example: published, sent, each contact's mail in the sink. */
async function runBroadcastSdk(source, client, cwd, env, base, state) {
  const prelude = client
    .split('\n')
    .filter((line) => /^import |^const bird = /.test(line))
    .join('\n');
  const { published, broadcast } = runTs(`${prelude}\n${source}`, cwd, env, base, state);
  if (!published?.valid) fail(`templates.versions.submit: ${JSON.stringify(published)}`);
  if (
    !/^eb_/.test(broadcast?.id ?? '') ||
    !['accepted', 'sending', 'sent'].includes(broadcast.status)
  )
    fail(`broadcasts.create: ${JSON.stringify(broadcast)}`);
  for (const [address, name] of [
    ['grace@example.com', 'Grace'],
    ['linus@example.com', 'Linus'],
  ])
    await sinkPrints(state, `to ${address}: "News for ${name}".*List-Unsubscribe: one-click`);
  say(
    `ok   the broadcast example: ${broadcast.id} reached each contact, personalised, with one-click unsubscribe`,
  );
}

/** The SMS example, after the client lines of the first one: accepted, printed, delivered. */
async function runSmsSdk(source, client, cwd, env, base, state) {
  const prelude = client
    .split('\n')
    .filter((line) => /^import |^const bird = /.test(line))
    .join('\n');
  const { sms } = runTs(`${prelude}\n${source}`, cwd, env, base, state);
  if (!/^sms_/.test(sms?.id ?? '') || sms.status !== 'accepted')
    fail(`sms.send: ${JSON.stringify(sms)}`);
  const sent = /bird\.sms\.send\((\{[\s\S]*?\})\)/.exec(source)[1];
  await smscPrints(state, Function(`return (${sent})`)());
  let read;
  for (const end = Date.now() + 15_000; Date.now() < end; await sleep(300)) {
    const response = await fetch(`${base}/v1/sms/messages/${sms.id}`, {
      headers: { authorization: `Bearer ${state.values.key}` },
    });
    read = await response.json();
    if (read.status === 'delivered') break;
  }
  if (read?.status !== 'delivered') fail(`bird.sms.get(${sms.id}): ${JSON.stringify(read)}`);
  say(`ok   the SMS SDK example: ${sms.id} accepted, printed by the SMSC, then delivered`);
}

/** The WhatsApp example: accepted, printed by the Graph stand-in, then read (its webhooks came). */
async function runWhatsAppSdk(source, client, cwd, env, base, state) {
  const prelude = client
    .split('\n')
    .filter((line) => /^import |^const bird = /.test(line))
    .join('\n');
  const { whatsapp } = runTs(`${prelude}\n${source}`, cwd, env, base, state);
  if (!/^wam_/.test(whatsapp?.id ?? '') || whatsapp.status !== 'accepted')
    fail(`whatsapp.send: ${JSON.stringify(whatsapp)}`);
  const graph = state.servers.get('dev:graph') ?? fail('no Graph stand-in running');
  await graph.waitFor(/WhatsApp template to \+?31612345678: .*order_update/);
  let read;
  for (const end = Date.now() + 15_000; Date.now() < end; await sleep(300)) {
    const response = await fetch(`${base}/v1/whatsapp/messages/${whatsapp.id}`, {
      headers: { authorization: `Bearer ${state.values.key}` },
    });
    read = await response.json();
    if (read.read_at) break;
  }
  if (!read?.read_at) fail(`bird.whatsapp.get(${whatsapp.id}): ${JSON.stringify(read)}`);
  say(`ok   the WhatsApp SDK example: ${whatsapp.id} accepted, printed by the stand-in, then read`);
}

async function runSdk(source, cwd, env, base, state) {
  const result = runTs(source, cwd, env, base, state);
  if (result.verified?.status !== 'verified')
    fail(`domains.verify: ${JSON.stringify(result.verified ?? result).slice(0, 1500)}`);
  if (!/^em_/.test(result.message?.id ?? '')) fail(`email.send: ${JSON.stringify(result.message)}`);
  await sinkPrints(state, 'to ada@example.com: "Welcome".*DKIM-Signature: yes');
  say(
    `ok   the SDK example: ${result.domain.domain} verified, ${result.message.id} reached the sink, DKIM-signed`,
  );
}

main().catch((err) => {
  if (!(err instanceof Miss)) process.stderr.write(`${err.stack}\n`);
  process.exit(1);
});
