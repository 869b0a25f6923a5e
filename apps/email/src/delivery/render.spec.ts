import { renderContent } from './render';

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
});
