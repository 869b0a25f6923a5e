import { validateWhatsAppSend } from './send-validation';
import { echoContent } from './echo-content';

const to = '+31612345678';
const contentOf = (body: Record<string, unknown>) => validateWhatsAppSend({ to, ...body }).content;

describe(echoContent.name, () => {
  it('reads text back without preview_url, which WhatsApp does not report', () => {
    expect(echoContent(contentOf({ text: { body: 'Hi', preview_url: true } }))).toEqual({
      text: { body: 'Hi' },
    });
  });

  it('reads media, interactive content and cards back as sent', () => {
    const image = { url: 'https://cdn.example.org/a.png', caption: 'c' };
    expect(echoContent(contentOf({ image }))).toEqual({ image });
    const interactive = { type: 'request_contact_info', body_text: 'Number?' };
    expect(echoContent(contentOf({ interactive }))).toEqual({ interactive });
  });

  it('reads a template back as resolved, without the values of an authentication template', () => {
    const components = [{ type: 'body', parameters: [{ type: 'text', text: '123456' }] }];
    const content = contentOf({ template: { slug: 'bird_otp', components } });
    expect(
      echoContent(content, { slug: 'bird_otp', category: 'authentication', language: 'en' }),
    ).toEqual({
      template: { slug: 'bird_otp', category: 'authentication', language: 'en', components: [] },
    });
    expect(
      echoContent(content, { slug: 'bird_otp', category: 'utility', language: 'en' }).template
        ?.components,
    ).toEqual(components);
    expect(() => echoContent(content)).toThrow('without the template');
  });
});
