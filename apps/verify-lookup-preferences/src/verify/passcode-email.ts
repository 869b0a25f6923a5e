import { PASSCODE_WORDS } from '@switchboard/contracts';

/** Subject, text and HTML of a passcode email in `language` (its base language, then English). */
export function passcodeEmail(
  language: string,
  code: string,
  minutes: number,
): { subject: string; text: string; html: string } {
  const words =
    PASSCODE_WORDS[language] ?? PASSCODE_WORDS[language.split('-')[0]] ?? PASSCODE_WORDS.en;
  const line = words.line.replace('{{ code }}', code).replace('{{ minutes }}', String(minutes));
  return {
    subject: words.subject,
    text: `${line}\n`,
    html: `<p>${line.replace(code, `<strong style="font-size:1.4em;letter-spacing:0.1em">${code}</strong>`)}</p>`,
  };
}
