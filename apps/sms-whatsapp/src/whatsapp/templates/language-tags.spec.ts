import fc from 'fast-check';
import { broaderForms, canonicalTag, metaLanguageOf } from './language-tags';

describe(canonicalTag.name, () => {
  it("reads Meta's codes and BCP-47 tags in any case as the same tag", () => {
    expect(canonicalTag('pt_BR')).toBe('pt-BR');
    expect(canonicalTag('pt-br')).toBe('pt-BR');
    expect(canonicalTag('EN')).toBe('en');
    expect(canonicalTag('zh_hant_tw')).toBe('zh-Hant-TW');
    expect(canonicalTag('es-419')).toBe('es-419');
  });

  it('refuses what cannot be a language tag', () => {
    for (const bad of ['', 'e', 'english!', 'en--US', '12', 'en_US_', 'x'.repeat(40)])
      expect(canonicalTag(bad)).toBeUndefined();
  });

  it('is idempotent, and Meta’s form of a canonical tag reads back as it', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const tag = canonicalTag(raw);
        if (tag === undefined) return;
        expect(canonicalTag(tag)).toBe(tag);
        expect(canonicalTag(metaLanguageOf(tag))).toBe(tag);
      }),
    );
  });

  it('broader forms run from the tag to its language', () => {
    expect(broaderForms('zh-Hant-TW')).toEqual(['zh-Hant-TW', 'zh-Hant', 'zh']);
    expect(broaderForms('en')).toEqual(['en']);
  });
});
