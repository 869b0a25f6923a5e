import { pickLanguage } from './template-catalog';
import type { LanguageRow } from './template-rows';

const row = (language: string, status = 'approved'): LanguageRow => ({
  version_id: 'wav_1',
  language,
  meta_template_id: `m-${language}`,
  components: [{ type: 'BODY', text: language }],
  status,
  category: 'utility',
  previous_category: null,
  quality: null,
  quality_previous: null,
  quality_updated_at: null,
  rejection: null,
  revision: 1,
  content_hash: 'sha256:x',
  submitted_at: new Date(),
  approved_at: status === 'approved' ? new Date() : null,
  updated_at: new Date(),
});

const template = (on_missing_language: 'fail' | 'fallback', default_language = 'en-US') => ({
  slug: 'order_update',
  default_language,
  on_missing_language,
});

const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return 'resolved';
};

describe(pickLanguage.name, () => {
  const languages = [
    row('en-US'),
    row('pt'),
    row('pt-PT'),
    row('de', 'paused'),
    row('fr', 'deleted'),
  ];

  it('serves the default language when the send names none', () => {
    expect(pickLanguage(template('fail'), languages, undefined).language).toBe('en-US');
  });

  it("accepts Meta's underscore form and any case", () => {
    expect(pickLanguage(template('fail'), languages, 'en_us').language).toBe('en-US');
    expect(pickLanguage(template('fail'), languages, 'PT_pt').language).toBe('pt-PT');
  });

  it('under fail, serves a broader form but never a sibling variant', () => {
    expect(pickLanguage(template('fail'), languages, 'pt-BR').language).toBe('pt');
    expect(codeOf(() => pickLanguage(template('fail'), [row('pt-PT')], 'pt-BR'))).toBe('E01050');
  });

  it('under fail, a language the template does not hold is E01050, and a deleted one counts as not held', () => {
    expect(codeOf(() => pickLanguage(template('fail'), languages, 'ja'))).toBe('E01050');
    expect(codeOf(() => pickLanguage(template('fail'), languages, 'fr'))).toBe('E01050');
  });

  it('a held language Meta has not approved (or paused) is E01051', () => {
    expect(codeOf(() => pickLanguage(template('fail'), languages, 'de'))).toBe('E01051');
    expect(
      codeOf(() => pickLanguage(template('fallback'), [row('en-US', 'pending')], undefined)),
    ).toBe('E01051');
  });

  it('under fallback, a missing or unapproved language is served by the default', () => {
    expect(pickLanguage(template('fallback'), languages, 'ja').language).toBe('en-US');
    expect(pickLanguage(template('fallback'), languages, 'de-AT').language).toBe('en-US');
  });

  it('a malformed tag is a validation error on template.language', () => {
    expect(codeOf(() => pickLanguage(template('fail'), languages, 'not a tag'))).toBe('E01001');
  });
});
