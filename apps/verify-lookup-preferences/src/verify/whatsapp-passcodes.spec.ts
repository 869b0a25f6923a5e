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
});
