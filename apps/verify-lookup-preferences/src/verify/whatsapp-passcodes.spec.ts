import { templateLanguageFor } from './whatsapp-passcodes';

describe(templateLanguageFor.name, () => {
  it('takes the tag in either spelling, then its base language, then English, then the default', () => {
    expect(templateLanguageFor('nb-NO', ['en', 'nb_NO'], 'en')).toBe('nb_NO');
    expect(templateLanguageFor('pt-BR', ['pt_PT', 'en_US'], 'es')).toBe('pt_PT');
    expect(templateLanguageFor('zh-TW', ['zh', 'zh_TW'], 'en')).toBe('zh_TW');
    expect(templateLanguageFor('de', ['en_US', 'fr'], 'fr')).toBe('en_US');
    expect(templateLanguageFor('de', ['en', 'en_US'], 'fr')).toBe('en');
    expect(templateLanguageFor('ja', ['fr', 'es'], 'es')).toBe('es');
  });

  it("takes Verify's no as Meta's nb, and a base language's region the template defaults to", () => {
    expect(templateLanguageFor('no', ['en', 'nb'], 'nb')).toBe('nb');
    expect(templateLanguageFor('no', ['en', 'nb_NO'], 'en')).toBe('nb_NO');
    expect(templateLanguageFor('zh-TW', ['zh_CN', 'zh_HK'], 'zh_CN')).toBe('zh_HK');
    expect(templateLanguageFor('en', ['en_GB', 'en_US'], 'en_US')).toBe('en_US');
    expect(templateLanguageFor('de', ['en_GB', 'en_US', 'fr'], 'en_US')).toBe('en_US');
  });
});
