import type { EmailCompatibilityFinding, EmailCompatibilitySeverity } from '@switchboard/contracts';

type Support = EmailCompatibilityFinding['unsupported_clients'];

interface Rule {
  id: string;
  severity: 'problem' | 'warning';
  pattern: RegExp;
  message: string;
  fix: string | null;
  partial: string | null;
  unsupported: Support;
  partialClients: Support;
}

const WEB = ['desktop_webmail', 'mobile_webmail', 'android', 'ios'];
const all = (...families: string[]): Support =>
  families.sort().map((family) => ({ family, platforms: [...WEB].sort() }));
const OUTLOOK: Support = [{ family: 'outlook', platforms: ['windows', 'windows_mail'] }];

/** What mail clients remove, ignore or render inconsistently (the SDK's rule ids), in HTML. */
const RULES: Rule[] = [
  rule(
    'html_script',
    'problem',
    /<script\b[\s\S]*?(<\/script\s*>|$)/gi,
    'Scripts never run in Apple Mail, Gmail, Outlook or Yahoo; they are removed.',
    null,
    all('apple_mail', 'gmail', 'outlook', 'yahoo'),
  ),
  rule(
    'html_event_handlers',
    'problem',
    /\son[a-z]+\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi,
    'Event-handler attributes such as onclick are stripped by Apple Mail, Gmail, Outlook and Yahoo.',
    'Use a plain link instead.',
    all('apple_mail', 'gmail', 'outlook', 'yahoo'),
  ),
  rule(
    'html_embedded_content',
    'problem',
    /<(iframe|embed|object)\b[\s\S]*?(<\/\1\s*>|\/>|$)/gi,
    'Embedded content (iframe, embed, object) is removed by Apple Mail, Gmail, Outlook and Yahoo.',
    'Link to the content, with an image as preview.',
    all('apple_mail', 'gmail', 'outlook', 'yahoo'),
  ),
  rule(
    'html_linked_stylesheet',
    'problem',
    /<link\b[^<>]*rel\s*=\s*["']?stylesheet[^<>]*>/gi,
    'Linked stylesheets are never loaded by Gmail, Outlook or Yahoo.',
    'Inline the styles, or put them in a <style> element.',
    all('gmail', 'outlook', 'yahoo'),
  ),
  rule(
    'css_at_import',
    'problem',
    /@import\b[^;]*;?/gi,
    'An @import rule is ignored by Gmail, Outlook and Yahoo.',
    'Inline the imported styles.',
    all('gmail', 'outlook', 'yahoo'),
  ),
  rule(
    'html_form',
    'problem',
    /<(form|input|select|textarea)\b[^<>]*>/gi,
    'Forms and their controls do not work in Gmail, Outlook or Yahoo.',
    'Link to a form on your site.',
    all('gmail', 'outlook', 'yahoo'),
  ),
  rule(
    'html_svg',
    'problem',
    /<svg\b[\s\S]*?(<\/svg\s*>|$)/gi,
    'Inline SVG is removed by Gmail and Outlook.',
    'Use a PNG image.',
    all('gmail', 'outlook'),
  ),
  rule(
    'html_media',
    'problem',
    /<(video|audio)\b[\s\S]*?(<\/\1\s*>|$)/gi,
    'Video and audio elements do not play in Gmail, Outlook or Yahoo.',
    'Link to the media with a preview image.',
    all('gmail', 'outlook', 'yahoo'),
  ),
  rule(
    'html_button',
    'warning',
    /<button\b[\s\S]*?(<\/button\s*>|$)/gi,
    'A <button> does nothing in most mail clients and Outlook renders it unstyled.',
    'Use a styled link.',
    OUTLOOK,
  ),
  rule(
    'css_display_flex_grid',
    'warning',
    /display\s*:\s*(inline-)?(flex|grid)\b/gi,
    'display: flex and grid are ignored by Outlook and some Gmail apps.',
    'Lay out with tables.',
    OUTLOOK,
  ),
  rule(
    'css_position_fixed_sticky',
    'warning',
    /position\s*:\s*(fixed|sticky)\b/gi,
    'position: fixed and sticky are ignored by Gmail, Outlook and Yahoo.',
    null,
    all('gmail', 'outlook', 'yahoo'),
  ),
  rule(
    'css_variables_no_fallback',
    'warning',
    /var\(\s*--[\w-]+\s*\)/gi,
    'CSS variables are not supported by Gmail or Outlook; without a fallback the property is dropped.',
    'Give var() a fallback value, or write the value.',
    all('gmail', 'outlook'),
  ),
  rule(
    'css_viewport_units',
    'warning',
    /\b\d*\.?\d+(vh|vw)\b/gi,
    'vh and vw lengths are not supported by Gmail or Outlook.',
    'Use px or %.',
    all('gmail', 'outlook'),
  ),
  rule(
    'css_math_functions',
    'warning',
    /\b(clamp|min|max)\(/gi,
    'clamp(), min() and max() are not supported by Gmail or Outlook.',
    'Write a fixed value.',
    all('gmail', 'outlook'),
  ),
  rule(
    'css_modern_color',
    'warning',
    /\b(oklch|oklab|lch|lab)\(/gi,
    'oklch(), oklab(), lch() and lab() colors are not supported by most mail clients.',
    'Use a hex or rgb() color.',
    all('gmail', 'outlook', 'yahoo'),
  ),
  rule(
    'html_web_page_markup',
    'warning',
    /data-reactroot|id\s*=\s*["']__next["']/gi,
    'Markup left behind by a web framework adds weight and nothing a mail client uses.',
    'Remove it.',
    [],
  ),
];

function rule(
  id: string,
  severity: 'problem' | 'warning',
  pattern: RegExp,
  message: string,
  fix: string | null,
  clients: Support,
): Rule {
  return severity === 'problem'
    ? {
        id,
        severity,
        pattern,
        message,
        fix,
        partial: null,
        unsupported: clients,
        partialClients: [],
      }
    : {
        id,
        severity,
        pattern,
        message,
        fix,
        partial: message,
        unsupported: [],
        partialClients: clients,
      };
}

export const MAX_FINDINGS = 200;

/**
 * The findings in `html` (line and column of each match, the match cut at 256 characters), in
 * source order, at most 200; the severity counts every finding. `language` labels each one.
 */
export function compatibilityOf(
  html: string | null | undefined,
  language: string | null,
): { severity: EmailCompatibilitySeverity; findings: EmailCompatibilityFinding[] } {
  if (!html) return { severity: 'none', findings: [] };
  const found: Array<{ at: number; entry: Rule; match: string }> = [];
  for (const entry of RULES)
    for (const match of html.matchAll(entry.pattern)) {
      const at = (match.index ?? 0) + match[0].length - match[0].trimStart().length;
      found.push({ at, entry, match: match[0].trim().slice(0, 256) });
    }
  found.sort((a, b) => a.at - b.at);
  const severity = found.some(({ entry }) => entry.severity === 'problem')
    ? 'problem'
    : found.length
      ? 'warning'
      : 'none';
  // Lines and columns in one walk over the source for the findings kept: counting from the
  // start for each match was quadratic in a body with many matches.
  let line = 1;
  let lineStart = 0;
  let scanned = 0;
  const findings = found.slice(0, MAX_FINDINGS).map(({ at, entry, match }) => {
    for (let i = html.indexOf('\n', scanned); i !== -1 && i < at; i = html.indexOf('\n', i + 1)) {
      line++;
      lineStart = i + 1;
    }
    scanned = Math.max(scanned, at);
    return {
      rule_id: entry.id,
      severity: entry.severity,
      language,
      field: 'html' as const,
      message: entry.message,
      fix: entry.fix,
      partial: entry.partial,
      line,
      column: at - lineStart + 1,
      match,
      unsupported_clients: entry.unsupported,
      partial_clients: entry.partialClients,
    };
  });
  return { severity, findings };
}

/** Several languages' reports as one, in the order given, capped at 200. */
export function joinReports(
  reports: Array<{ severity: EmailCompatibilitySeverity; findings: EmailCompatibilityFinding[] }>,
): { severity: EmailCompatibilitySeverity; findings: EmailCompatibilityFinding[] } {
  const severity = reports.some((r) => r.severity === 'problem')
    ? 'problem'
    : reports.some((r) => r.severity === 'warning')
      ? 'warning'
      : 'none';
  return { severity, findings: reports.flatMap((r) => r.findings).slice(0, MAX_FINDINGS) };
}
