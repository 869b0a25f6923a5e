import { prefersHtml } from './prefers-html';

describe(prefersHtml.name, () => {
  it('chooses HTML for what browsers send when navigating', () => {
    // Chromium and Firefox
    expect(
      prefersHtml(
        'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
      ),
    ).toBe(true);
    expect(prefersHtml('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe(
      true,
    );
  });

  it('keeps JSON for no Accept, */*, application/json and a tie', () => {
    for (const accept of [undefined, '', '*/*', 'application/json', 'text/html, application/json'])
      expect({ accept, html: prefersHtml(accept) }).toEqual({ accept, html: false });
  });

  it('follows the q-values, the most specific range deciding', () => {
    expect(prefersHtml('application/json;q=0.5, text/html')).toBe(true);
    expect(prefersHtml('text/html;q=0.4, application/json;q=0.9')).toBe(false);
    expect(prefersHtml('text/*, */*;q=0.1')).toBe(true);
    expect(prefersHtml('text/html;q=0, */*')).toBe(false);
    expect(prefersHtml('TEXT/HTML; Q=0.9, application/*;q=0.2')).toBe(true);
  });

  it('ignores ranges it cannot read rather than failing the request', () => {
    expect(prefersHtml('garbage, text/html;q=abc, application/json')).toBe(false);
    expect(prefersHtml('garbage, text/html')).toBe(true);
  });
});
