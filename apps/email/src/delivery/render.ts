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
  const value = (path: string) => {
    let current: unknown = parameters;
    for (const key of path.split('.')) {
      if (typeof current !== 'object' || current === null) return '';
      current = (current as Record<string, unknown>)[key];
    }
    if (current === undefined || current === null) return '';
    if (typeof current === 'object') return JSON.stringify(current);
    return `${current as string | number | boolean}`;
  };
  const render = (template: string, escape: (text: string) => string) =>
    template.replace(TOKEN, (_token, path: string) => escape(value(path)));
  return {
    subject: render(content.subject, (text) => text.replace(/[\r\n]+/g, ' ')),
    html: content.html === null ? null : render(content.html, escapeHtml),
    text: content.text === null ? null : render(content.text, (text) => text),
  };
}

const TOKEN = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\s*\}\}/g;
