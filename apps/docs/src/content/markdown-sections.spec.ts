import { githubAnchor, markdownToText, splitSections } from './markdown-sections';

describe(splitSections.name, () => {
  const page = [
    '# Idempotency',
    '',
    'Retry writes **safely**.',
    '',
    '## The `Idempotency-Key` header',
    '',
    'Send it on [POST](http://x) requests.',
    '',
    '```bash',
    '# not a heading',
    'curl -X POST',
    '```',
    '',
    '### Replays',
    '',
    '| Status | Stored |',
    '|---|---|',
    '| 2xx | yes |',
    '',
    '#### Details stay in their section',
    '',
    '## Replays',
    'again',
  ].join('\n');

  it('takes the title from the first # heading and makes the intro its section', () => {
    const { title, sections } = splitSections(page, 'fallback');
    expect(title).toBe('Idempotency');
    expect(sections[0]).toMatchObject({
      heading: 'Idempotency',
      anchor: 'idempotency',
      text: 'Retry writes safely.',
    });
    expect(sections[0].markdown).toBe('# Idempotency\n\nRetry writes **safely**.');
  });

  it('splits at ## and ### headings, not at # lines inside code fences or at ####', () => {
    const { sections } = splitSections(page, 'fallback');
    expect(sections.map((s) => s.heading)).toEqual([
      'Idempotency',
      'The Idempotency-Key header',
      'Replays',
      'Replays',
    ]);
    expect(sections[1].text).toBe('Send it on POST requests. # not a heading curl -X POST');
    expect(sections[2].text).toBe('Status · Stored 2xx · yes Details stay in their section');
  });

  it('gives repeated headings GitHub suffixes', () => {
    const { sections } = splitSections(page, 'fallback');
    expect(sections.map((s) => s.anchor)).toEqual([
      'idempotency',
      'the-idempotency-key-header',
      'replays',
      'replays-1',
    ]);
  });

  it('drops a blank intro and falls back to the given title', () => {
    const { title, sections } = splitSections('## Only\n\ntext', 'guides/x');
    expect(title).toBeUndefined();
    expect(sections).toEqual([
      { heading: 'Only', anchor: 'only', markdown: '## Only\n\ntext', text: 'text' },
    ]);
  });
});

describe(githubAnchor.name, () => {
  it.each([
    ['Rate limit headers', 'rate-limit-headers'],
    ['GET /v1/docs/search', 'get-v1docssearch'],
    ['`starting_after` and `ending_before`', 'starting_after-and-ending_before'],
    ['What is 2.0?', 'what-is-20'],
    ['Émile & co', 'émile--co'],
  ])('%s -> %s', (heading, anchor) => {
    expect(githubAnchor(heading)).toBe(anchor);
  });
});

describe(markdownToText.name, () => {
  it('keeps the words of lists, quotes and links on one line', () => {
    expect(markdownToText(['- one [two](a.md)', '> three', '1. `four`'])).toBe(
      'one two three four',
    );
  });
});
