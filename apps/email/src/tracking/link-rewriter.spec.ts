import fc from 'fast-check';
import { decodeEntities, personalisedHtml, trackableHtml } from './link-rewriter';
import type { TrackedLink } from './link-rewriter';

const ORIGIN = 'https://mail.example';
const both = { opens: true, clicks: true };

/** The HTML with each tracked link as `T[<url>|<name>]` and the pixel as `P`. */
function rewrite(html: string, options = both): { html: string; links: TrackedLink[] } {
  const trackable = trackableHtml(html, ORIGIN, options);
  return {
    html: personalisedHtml(trackable, (link) => `T[${link.url}|${link.name ?? ''}]`, 'PIXEL'),
    links: trackable.links,
  };
}

describe('trackableHtml', () => {
  it('rewrites http(s) anchors and keeps every other byte', () => {
    const { html, links } = rewrite(
      '<p>Hi <a class="x" href="https://acme.example/a?x=1&amp;y=2">A</a> and ' +
        "<A HREF='http://acme.example/b' target=_blank>B</A> and <a href=https://acme.example/c>C</a></p>",
      { opens: false, clicks: true },
    );
    expect(links.map((link) => link.url)).toEqual([
      'https://acme.example/a?x=1&y=2',
      'http://acme.example/b',
      'https://acme.example/c',
    ]);
    expect(html).toBe(
      '<p>Hi <a class="x" href="T[https://acme.example/a?x=1&y=2|]">A</a> and ' +
        '<A HREF="T[http://acme.example/b|]" target=_blank>B</A> and <a href="T[https://acme.example/c|]">C</a></p>',
    );
  });

  it('leaves mailto:, tel:, in-page anchors, other schemes, own links and opted-out anchors alone', () => {
    const source =
      '<a href="mailto:a@acme.example">m</a><a href="tel:+3112345678">t</a><a href="#top">#</a>' +
      '<a href="javascript:void(0)">j</a><a href="ftp://acme.example/f">f</a>' +
      `<a href="${ORIGIN}/u/abc.def">unsubscribe</a><a href="${ORIGIN}/t/c/abc.def">tracked</a>` +
      '<a href="https://acme.example/keep" data-msys-clicktrack="0">k</a><a name="top">anchor</a>';
    expect(rewrite(source, { opens: false, clicks: true })).toEqual({ html: source, links: [] });
  });

  it('leaves a destination too long for a token as written', () => {
    const long = `https://a.example/?q=${'x'.repeat(4_000)}`;
    expect(rewrite(`<a href="${long}">x</a>`, { opens: false, clicks: true }).links).toEqual([]);
  });

  it('takes the link name from data-link-name or data-msys-linkname', () => {
    const { links } = rewrite(
      '<a data-link-name="Hero &amp; CTA" href="https://a.example/1">1</a>' +
        '<a href="https://a.example/2" data-msys-linkname="footer">2</a>',
    );
    expect(links).toEqual([
      { url: 'https://a.example/1', name: 'Hero & CTA' },
      { url: 'https://a.example/2', name: 'footer' },
    ]);
  });

  it('is not fooled by > or href inside other attribute values, nor by data-href', () => {
    const { html, links } = rewrite(
      '<a title="a > b href=https://evil.example" data-href="https://no.example" href="https://yes.example">x</a>',
      { opens: false, clicks: true },
    );
    expect(links.map((link) => link.url)).toEqual(['https://yes.example']);
    expect(html).toContain(
      'title="a > b href=https://evil.example" data-href="https://no.example"',
    );
  });

  it('keeps the first of two hrefs, as browsers do', () => {
    const { links } = rewrite(
      '<a href="https://first.example" href="https://second.example">x</a>',
    );
    expect(links.map((link) => link.url)).toEqual(['https://first.example']);
  });

  it('decodes numeric character references and trims spaces around the URL', () => {
    const { links } = rewrite('<a href="  https://a.example/?q=&#x26;&#38;z  ">x</a>');
    expect(links[0].url).toBe('https://a.example/?q=&&z');
  });

  it('puts the pixel before the last </body>, or at the end without one', () => {
    expect(rewrite('<html><body><p>x</p></BODY></html>').html).toMatch(
      /^<html><body><p>x<\/p><img src="PIXEL"[^>]*><\/BODY><\/html>$/,
    );
    expect(rewrite('<p>x</p>').html).toMatch(/^<p>x<\/p><img src="PIXEL"[^>]*>$/);
    expect(rewrite('<p>x</p>', { opens: false, clicks: true }).html).toBe('<p>x</p>');
  });

  it('takes linear time over unclosed anchors and many </body> (a send cannot stall delivery)', () => {
    // 200 KB each: quadratic scans took minutes here; a linear one takes milliseconds.
    for (const html of ['<a "'.repeat(50_000), '<a '.repeat(70_000), '</body>'.repeat(30_000)]) {
      const started = Date.now();
      const trackable = trackableHtml(html, ORIGIN, both);
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(trackable.links).toEqual([]);
    }
    expect(rewrite('<a href="https://x.test/">x</a><a "<p>').links).toEqual([
      { url: 'https://x.test/', name: null },
    ]);
  });

  it('changes nothing but the slots for any text without anchors', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        fc.pre(!/<a/i.test(text));
        expect(rewrite(text, { opens: false, clicks: true }).html).toBe(text);
      }),
    );
  });

  it('decodes the entities a URL carries and nothing else', () => {
    expect(decodeEntities('a&amp;b&lt;&gt;&quot;&apos;&#65;&#x42;&nbsp;&#0;')).toBe(
      'a&b<>"\'AB&nbsp;&#0;',
    );
  });
});
