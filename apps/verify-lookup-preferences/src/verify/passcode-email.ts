/** The passcode email's words per language; a language without its own falls back to English. */
const WORDS: Record<string, { subject: string; line: (code: string, minutes: number) => string }> =
  {
    en: {
      subject: 'Your verification code',
      line: (code, minutes) =>
        `Your verification code is ${code}. It expires in ${minutes} minutes. Never share it.`,
    },
    nl: {
      subject: 'Je verificatiecode',
      line: (code, minutes) =>
        `Je verificatiecode is ${code}. Deze verloopt over ${minutes} minuten. Deel hem nooit.`,
    },
    de: {
      subject: 'Ihr Bestätigungscode',
      line: (code, minutes) =>
        `Ihr Bestätigungscode lautet ${code}. Er ist ${minutes} Minuten gültig. Nicht weitergeben.`,
    },
    fr: {
      subject: 'Votre code de vérification',
      line: (code, minutes) =>
        `Votre code de vérification est ${code}. Il expire dans ${minutes} minutes. Ne le partagez pas.`,
    },
    es: {
      subject: 'Tu código de verificación',
      line: (code, minutes) =>
        `Tu código es ${code}. Caduca en ${minutes} minutos. No lo compartas.`,
    },
    it: {
      subject: 'Il tuo codice di verifica',
      line: (code, minutes) =>
        `Il tuo codice di verifica è ${code}. Scade tra ${minutes} minuti. Non condividerlo.`,
    },
    pt: {
      subject: 'O seu código de verificação',
      line: (code, minutes) =>
        `O seu código é ${code}. Expira em ${minutes} minutos. Não o partilhe.`,
    },
  };

/** Subject, text and HTML of a passcode email in `language` (its base language, then English). */
export function passcodeEmail(
  language: string,
  code: string,
  minutes: number,
): { subject: string; text: string; html: string } {
  const words = WORDS[language] ?? WORDS[language.split('-')[0]] ?? WORDS.en;
  const line = words.line(code, minutes);
  return {
    subject: words.subject,
    text: `${line}\n`,
    html: `<p>${line.replace(code, `<strong style="font-size:1.4em;letter-spacing:0.1em">${code}</strong>`)}</p>`,
  };
}
