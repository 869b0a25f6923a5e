import {
  foldPreviewText,
  htmlLiquid,
  liquidProblems,
  plainLiquid,
  textFromHtml,
} from './template-liquid';

/** Milliseconds `work` takes. */
function timed(work: () => unknown): number {
  const started = Date.now();
  work();
  return Date.now() - started;
}

describe(liquidProblems.name, () => {
  it('scans unclosed markup in linear time (a 1 MB body cannot stall the service)', () => {
    // 200 KB each: the former scans took seconds here and minutes at the 1 MB body limit.
    for (const source of ['{{'.repeat(100_000), `{% raw %}${'{%a'.repeat(70_000)}{% endraw %}`])
      expect(timed(() => liquidProblems(source))).toBeLessThan(1_000);
  });

  it('still finds the refused tags and filters of well-formed markup', () => {
    expect(liquidProblems('{{ x | json }}{% include "a" %}')).toEqual([
      'the json filter is not supported in email templates: remove it',
      'the {% include %} tag is not supported in email templates: remove it',
    ]);
  });

  it('finds a file tag inside a {% liquid %} block, and refuses layout', () => {
    expect(liquidProblems('<p>{% liquid include ".data/admin-token" %}</p>')).toEqual([
      'the {% include %} tag is not supported in email templates: remove it',
    ]);
    expect(liquidProblems('{%- liquid\n  assign a = 1\n  render file\n-%}')).toEqual([
      'the {% render %} tag is not supported in email templates: remove it',
    ]);
    expect(liquidProblems('{% layout "package.json" %}')).toEqual([
      'the {% layout %} tag is not supported in email templates: remove it',
    ]);
    expect(liquidProblems('{% liquid\n if a\n echo a\n endif %}')).toEqual([]);
  });
});

describe('the template engines', () => {
  it('read no file, whatever a template names (no file system of their own)', () => {
    for (const engine of [htmlLiquid, plainLiquid])
      for (const source of [
        '{% include "package.json" %}',
        '{% render "package.json" %}',
        '{% layout "package.json" %}',
        '{% liquid include "package.json" %}',
      ])
        expect(() => engine.parseAndRenderSync(source, {})).toThrow(/Failed to lookup/);
  });
});

describe(textFromHtml.name, () => {
  it('takes linear time over unclosed tags', () => {
    for (const html of ['<style'.repeat(35_000), '<a href="">'.repeat(20_000), '<'.repeat(200_000)])
      expect(timed(() => textFromHtml(html))).toBeLessThan(1_000);
  });

  it('keeps its output for ordinary markup', () => {
    expect(
      textFromHtml(
        '<head><title>T</title><style>p{}</style></head><p>Hi <a href="https://x.test">there</a></p><ul><li>one</li></ul>',
      ),
    ).toBe('Hi there (https://x.test)\n\n- one');
  });
});

describe(foldPreviewText.name, () => {
  it('finds <body> in linear time', () => {
    expect(timed(() => foldPreviewText('<body'.repeat(40_000), 'x'))).toBeLessThan(1_000);
  });
});
