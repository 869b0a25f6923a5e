import fc from 'fast-check';
import { renderContent, renderedLength } from './render';

describe('renderContent', () => {
  it('leaves content without parameters exactly as written', () => {
    const content = { subject: 'Hi {{ name }}', html: '<p>{{name}}</p>', text: null };
    expect(renderContent(content, null)).toBe(content);
  });

  it('substitutes tokens, nested paths, and missing values as empty', () => {
    const rendered = renderContent(
      { subject: 'Order {{ order.id }}', html: null, text: 'Dear {{name}}, {{ missing }}.' },
      { name: 'Ada', order: { id: 42 } },
    );
    expect(rendered).toEqual({ subject: 'Order 42', html: null, text: 'Dear Ada, .' });
  });

  it('escapes values in HTML and keeps line breaks out of the subject', () => {
    const rendered = renderContent(
      { subject: '{{ who }}', html: '<b>{{ who }}</b>', text: null },
      { who: '<script>\r\nx' },
    );
    expect(rendered.html).toBe('<b>&lt;script&gt;\r\nx</b>');
    expect(rendered.subject).toBe('<script> x');
  });

  it('is measured, without rendering, to exactly what it renders to', () => {
    const token = fc.constantFrom('{{a}}', '{{ a }}', '{{b.c}}', '{{ missing }}', '{{', '}}');
    const template = fc
      .array(fc.oneof(token, fc.string({ unit: 'grapheme-composite' })), { maxLength: 12 })
      .map((parts) => parts.join(''));
    const value = fc.oneof(
      fc.string({ unit: 'grapheme-composite' }),
      fc.integer(),
      fc.constant(null),
    );
    fc.assert(
      fc.property(template, template, value, value, (subject, body, a, c) => {
        const parameters = { a, b: { c } };
        const rendered = renderContent({ subject, html: body, text: body }, parameters);
        const bytes = (text: string) => Buffer.byteLength(text);
        expect(renderedLength(subject, parameters, 'subject', bytes)).toBe(bytes(rendered.subject));
        expect(renderedLength(body, parameters, 'html', bytes)).toBe(
          bytes(rendered.html as string),
        );
        expect(renderedLength(body, parameters, 'text', (t) => t.length)).toBe(
          (rendered.text as string).length,
        );
      }),
    );
  });
});
