import { canonicalLanguage, chooseLanguage, isLanguageTag } from './template-languages';

describe(chooseLanguage.name, () => {
  const fallback = { onMissing: 'fallback' as const, sourceRequired: false };
  const fail = { onMissing: 'fail' as const, sourceRequired: false };

  it('serves the default language when the send names none', () => {
    expect(chooseLanguage(['en', 'fr'], 'en', undefined, fallback)).toEqual({
      ok: true,
      language: 'en',
    });
  });

  it('refuses a send naming no language when the template requires one', () => {
    expect(chooseLanguage(['en'], 'en', undefined, { ...fallback, sourceRequired: true })).toEqual({
      ok: false,
      reason: 'language_required',
    });
  });

  it('serves the language asked for in any casing, in its stored form', () => {
    expect(chooseLanguage(['en', 'pt-BR'], 'en', 'PT-br', fail)).toEqual({
      ok: true,
      language: 'pt-BR',
    });
  });

  it('serves a broader form before the default (pt-BR by pt)', () => {
    expect(chooseLanguage(['en', 'pt'], 'en', 'pt-BR', fail)).toEqual({ ok: true, language: 'pt' });
  });

  it('falls back to the default with fallback, never to a sibling variant', () => {
    expect(chooseLanguage(['en', 'pt-PT'], 'en', 'pt-BR', fallback)).toEqual({
      ok: true,
      language: 'en',
    });
  });

  it('refuses a missing language with fail', () => {
    expect(chooseLanguage(['en', 'pt-PT'], 'en', 'pt-BR', fail)).toEqual({
      ok: false,
      reason: 'language_unavailable',
    });
  });
});

describe(canonicalLanguage.name, () => {
  it('writes tags in BCP-47 conventional case', () => {
    expect(canonicalLanguage('zh-hant-tw')).toBe('zh-Hant-TW');
    expect(isLanguageTag('pt-BR')).toBe(true);
    expect(isLanguageTag('not a tag')).toBe(false);
  });
});
