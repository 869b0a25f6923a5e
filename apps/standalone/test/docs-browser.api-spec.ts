import { execFile } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { ErrorCatalog } from '@switchboard/contracts';
import { startTestPlatform } from './test-platform';
import type { TestPlatform } from './test-platform';

/** Screenshots land here (git-ignored), one per page checked. */
const OUTPUT_DIR = resolve(__dirname, '../../../test-output/docs-browser');

/** CHROMIUM_PATH, else `chromium` on PATH (Debian's package; .ci/run installs it). */
function findChromium(): string {
  const candidates = process.env.CHROMIUM_PATH
    ? [process.env.CHROMIUM_PATH]
    : (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'chromium'));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not this one
    }
  }
  throw new Error(
    'chromium not found: install it (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH',
  );
}

/** A real headless Chromium, one run per call, with its own throw-away profile. */
function chromium(binary: string, profile: string, args: string[]) {
  const flags = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--no-first-run',
    '--hide-scrollbars',
    `--user-data-dir=${profile}`,
    // Console messages, CSP violations included, go to stderr as INFO:CONSOLE lines.
    '--enable-logging=stderr',
    '--v=0',
  ];
  return new Promise<{ stdout: string; stderr: string }>((done, fail) => {
    execFile(
      binary,
      [...flags, ...args],
      { maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error
          ? fail(new Error(`${binary} failed: ${error.message}\n${stderr}`))
          : done({ stdout, stderr }),
    );
  });
}

const consoleProblems = (stderr: string) =>
  stderr.split('\n').filter((line) => /INFO:CONSOLE|Content Security Policy/.test(line));

describe('docs in a real browser (headless Chromium)', () => {
  let platform: TestPlatform;
  let binary: string;
  let profile: string;

  beforeAll(async () => {
    binary = findChromium();
    profile = mkdtempSync(join(tmpdir(), 'switchboard-chromium-'));
    mkdirSync(OUTPUT_DIR, { recursive: true });
    platform = await startTestPlatform();
  });

  afterAll(async () => {
    await platform?.stop();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  const visit = async (name: string, path: string) => {
    const url = `${platform.base}${path}`;
    const dom = await chromium(binary, profile, ['--dump-dom', url]);
    const screenshot = join(OUTPUT_DIR, `${name}.png`);
    rmSync(screenshot, { force: true });
    await chromium(binary, profile, [`--screenshot=${screenshot}`, '--window-size=1280,900', url]);
    console.log(`docs-browser: screenshot of ${path} at ${screenshot}`);
    return { dom: dom.stdout, problems: consoleProblems(dom.stderr), screenshot };
  };

  it('renders the index page with its title and links to the guides, the API reference and every error code', async () => {
    const { dom, problems, screenshot } = await visit('index', '/v1/docs/pages?slug=index');
    expect(dom).toContain('<title>Switchboard documentation · Switchboard docs</title>');
    expect(dom).toContain('<h1 id="switchboard-documentation">Switchboard documentation</h1>');
    for (const slug of ['getting-started', 'guides/idempotency', 'guides/errors', 'reference/api'])
      expect(dom).toContain(`href="/v1/docs/pages?slug=${slug}"`);
    for (const code of Object.keys(ErrorCatalog))
      expect(dom).toContain(`href="/v1/docs/pages?slug=errors/${code}"`);
    // The page's own style is allowed by the policy; nothing was blocked or logged.
    expect(problems).toEqual([]);
    expect(readFileSync(screenshot).subarray(1, 4).toString()).toBe('PNG');
  });

  it('renders search results as links to the sections', async () => {
    const { dom, problems } = await visit('search', '/v1/docs/search?q=idempotency');
    expect(dom).toMatch(/<title>Search: idempotency · Switchboard docs<\/title>/);
    expect(dom).toMatch(/<a href="\/v1\/docs\/pages\?slug=guides\/idempotency#[a-z0-9-]+">/);
    expect(problems).toEqual([]);
  });

  it('renders an error code page reached from the index', async () => {
    const { dom } = await visit('error-code', '/v1/docs/pages?slug=errors/E01001');
    expect(dom).toMatch(/<h1 id="[^"]+">E01001 /);
    expect(dom).toContain('href="/v1/docs/pages?slug=guides/errors"');
  });
});
