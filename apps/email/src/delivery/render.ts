import { escapeHtml } from '../templates/template-liquid';

/**
 * Inline personalisation (the SDK's `parameters`): `{{ name }}` and `{{ order.id }}` tokens take
 * the send's values; a missing value renders empty. In HTML the value is escaped, so a
 * parameter can never inject markup. Without `parameters` the content is sent as written.
 */
export function renderContent(
  content: { subject: string; html: string | null; text: string | null },
  parameters: Record<string, unknown> | null,
): { subject: string; html: string | null; text: string | null } {
  if (!parameters) return content;
  const render = (template: string, part: Part) =>
    template.replace(TOKEN, (_token, path: string) => ESCAPES[part](valueOf(parameters, path)));
  return {
    subject: render(content.subject, 'subject'),
    html: content.html === null ? null : render(content.html, 'html'),
    text: content.text === null ? null : render(content.text, 'text'),
  };
}

type Part = 'subject' | 'html' | 'text';

/**
 * How long one part renders with `parameters`, by `measure` (characters, bytes), without
 * rendering it: a few thousand tokens of a 16 KB parameter make gigabytes, so a send is measured
 * when it is accepted and refused there.
 */
export function renderedLength(
  template: string,
  parameters: Record<string, unknown>,
  part: Part,
  measure: (text: string) => number,
): number {
  const values = new Map<string, number>();
  let length = 0;
  let literalFrom = 0;
  for (const token of template.matchAll(TOKEN)) {
    length += measure(template.slice(literalFrom, token.index));
    let value = values.get(token[1]);
    if (value === undefined) {
      value = measure(ESCAPES[part](valueOf(parameters, token[1])));
      values.set(token[1], value);
    }
    length += value;
    literalFrom = token.index + token[0].length;
  }
  return length + measure(template.slice(literalFrom));
}

function valueOf(parameters: Record<string, unknown>, path: string): string {
  let current: unknown = parameters;
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null) return '';
    current = (current as Record<string, unknown>)[key];
  }
  if (current === undefined || current === null) return '';
  if (typeof current === 'object') return JSON.stringify(current);
  return `${current as string | number | boolean}`;
}

const ESCAPES: Record<Part, (text: string) => string> = {
  subject: (text) => text.replace(/[\r\n]+/g, ' '),
  html: escapeHtml,
  text: (text) => text,
};

const TOKEN = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\s*\}\}/g;
