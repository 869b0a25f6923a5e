import { PASSCODE_WORDS, VERIFICATION_LANGUAGES } from '@switchboard/contracts';
import { passcodeEmail } from './passcode-email';

describe(passcodeEmail.name, () => {
  it('has its own words for every language Verify supports', () => {
    expect(VERIFICATION_LANGUAGES.filter((language) => !PASSCODE_WORDS[language])).toEqual([]);
  });

  it('writes the code and the minutes into the language asked for, its base, then English', () => {
    expect(passcodeEmail('ja', '123456', 10)).toMatchObject({
      subject: '認証コード',
      text: '認証コードは 123456 です。有効期限は 10 分です。他の人に教えないでください。\n',
    });
    expect(passcodeEmail('fr-CA', '123456', 10).subject).toBe('Votre code de vérification');
    expect(passcodeEmail('sw', '123456', 10).text).toContain('Your verification code is 123456');
    expect(passcodeEmail('de', '123456', 10).html).toContain('<strong');
  });
});
