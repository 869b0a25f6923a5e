import { buildDocPage, markdownUrl, pageUrl, rewriteRelativeLinks } from './doc-page';

describe(rewriteRelativeLinks.name, () => {
  it('points relative Markdown links at the page API, keeping anchors', () => {
    expect(
      rewriteRelativeLinks(
        '[a](../getting-started.md) [b](errors.md#statuses)',
        'guides/idempotency',
      ),
    ).toBe(
      '[a](/v1/docs/pages?slug=getting-started) [b](/v1/docs/pages?slug=guides/errors#statuses)',
    );
  });

  it('leaves absolute, external and out-of-tree links alone', () => {
    const markdown =
      '[a](https://x.org/a.md) [b](/v1/docs/pages?slug=errors) [c](../../outside.md)';
    expect(rewriteRelativeLinks(markdown, 'guides/x')).toBe(markdown);
  });
});

describe(buildDocPage.name, () => {
  it('uses the slug as title when the page has no # heading', () => {
    expect(buildDocPage('notes', 'plain text').title).toBe('notes');
  });

  it('builds page and Markdown URLs from the slug', () => {
    expect(pageUrl('errors/E01001', 'e01001-validationerror')).toBe(
      '/v1/docs/pages?slug=errors/E01001#e01001-validationerror',
    );
    expect(markdownUrl('guides/idempotency')).toBe(
      '/v1/docs/pages?slug=guides/idempotency&format=markdown',
    );
  });
});
