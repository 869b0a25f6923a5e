import { CompiledLanguage } from './compiled-language';
import { liquidProblems, textFromHtml } from './template-liquid';

describe(CompiledLanguage.name, () => {
  const content = {
    subject: 'Order {{ order_id }} for {{ bird.contact.first_name }}',
    preview_text: 'Shipped {{ order_id }}',
    html: '<p>Hi {{ bird.contact.first_name }}, {{ note }}</p>{% for item in items %}<li>{{ item }}</li>{% endfor %}',
    text: null,
  };

  it('lists the parameters and contact attributes it reads, bird aside', () => {
    const compiled = new CompiledLanguage(content);
    expect(compiled.variables).toEqual({
      parameters: ['items', 'note', 'order_id'],
      contactKeys: ['first_name'],
      usesLoop: true,
    });
  });

  it('escapes values in HTML and keeps the subject and derived text plain', () => {
    const rendered = new CompiledLanguage(content).render(
      {
        parameters: { order_id: 'A&1', note: '<b>soon</b>', items: ['x'] },
        contact: { first_name: 'Ada' },
      },
      true,
    );
    expect(rendered.subject).toBe('Order A&1 for Ada');
    expect(rendered.html).toContain('Hi Ada, &lt;b&gt;soon&lt;/b&gt;');
    expect(rendered.html).toMatch(/^<div style="display:none[^>]*>Shipped A&amp;1<\/div>/);
    expect(rendered.text).toContain('Hi Ada, <b>soon</b>');
  });

  it('escapes the preview text as plain text, and derives the text as publishing does', () => {
    const rendered = new CompiledLanguage({
      subject: 'Hi',
      preview_text: 'Read <title> & {{ who }}',
      html: '<body><p>Hello {{ who }}</p></body>',
      text: null,
    }).render({ parameters: { who: 'Ann "Bee"' } }, true);
    expect(rendered.html).toContain(
      '>Read &lt;title&gt; &amp; Ann &quot;Bee&quot;</div><p>Hello Ann &#34;Bee&#34;</p>',
    );
    // What a send of the published version carries: no preheader, the value as written.
    expect(rendered.text).toBe('Hello Ann "Bee"');
    expect(rendered.text).toBe(textFromHtml('<p>Hello Ann "Bee"</p>'));
  });

  it('escapes a value once, even through the escape filter, and tests optional fields', () => {
    const rendered = new CompiledLanguage({
      subject: 'Hi',
      preview_text: null,
      html: '<p>{{ x | escape }} {{ x }}</p>{% if c.coupon %}C{% else %}none{% endif %}{{ c.code | default: "-" }}',
      text: null,
    }).render({ parameters: { x: 'A&B <i>', c: {} } }, true);
    expect(rendered.html).toBe('<p>A&amp;B &lt;i&gt; A&amp;B &lt;i&gt;</p>none-');
  });

  it('throws on a missing parameter when strict, renders it empty otherwise', () => {
    const compiled = new CompiledLanguage(content);
    expect(compiled.missing({ order_id: 1 })).toEqual(['items', 'note']);
    expect(() => compiled.render({ parameters: { order_id: 1, items: [] } }, true)).toThrow(
      /undefined variable: note/,
    );
    expect(compiled.render({}, false).subject).toBe('Order  for');
  });

  it('renders a bird.contact attribute the contact lacks as empty', () => {
    const rendered = new CompiledLanguage({ ...content, preview_text: null }).render(
      { parameters: { order_id: 1, note: '', items: [] }, contact: null },
      true,
    );
    expect(rendered.html).toBe('<p>Hi , </p>');
    // An attribute named like an Object property reads the contact's own value, or nothing.
    const inherited = new CompiledLanguage({
      subject: 'x',
      preview_text: null,
      html: '<p>[{{ bird.contact.constructor }}]</p>',
      text: null,
    }).render({ parameters: {}, contact: {} }, true);
    expect(inherited.html).toBe('<p>[]</p>');
  });
});

describe(liquidProblems.name, () => {
  it.each([
    ['{% include "x" %}', /include/],
    ['{% render "x" %}', /render/],
    ['{% increment n %}', /increment/],
    ['{{ price | money }}', /money/],
    ['{{ x | json }}', /json/],
    ['{% if list == empty %}x{% endif %}', /empty or blank/],
    ['{% if x %}', /does not parse/],
    ['{{ x | no_such_filter }}', /does not parse/],
    [`${'{% if a %}'.repeat(21)}${'{% endif %}'.repeat(21)}`, /nested 21 deep/],
  ])('refuses %s', (source, reason) => {
    expect(liquidProblems(source).join(' ')).toMatch(reason);
  });

  it('accepts variables, filters, conditionals and loops', () => {
    expect(
      liquidProblems(
        '{% if a.size == 0 %}{{ a | upcase }}{% endif %}{% for i in b %}{{ i }}{% endfor %}',
      ),
    ).toEqual([]);
  });
});

describe(textFromHtml.name, () => {
  it('turns markup into readable plain text', () => {
    expect(textFromHtml('<h1>Hi</h1><p>Read <a href="https://x.test">this</a>&amp;more</p>')).toBe(
      'Hi\n\nRead this (https://x.test)&more',
    );
  });
});
