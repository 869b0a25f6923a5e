import { Liquid } from 'liquidjs';
import type { Template } from 'liquidjs';

/**
 * The Liquid engines of email templates. Strict variables make a missing value an error a send
 * can report; own properties only, so a template cannot reach prototypes. HTML output escapes
 * every value (a parameter never injects markup), once: a value an author already passed through
 * `escape` is not escaped again. Subjects and text are plain. `lenientIf` lets a condition or a
 * `default` test an optional field (`{% if customer.coupon %}`) that strict variables refuse
 * anywhere else; a parameter left out altogether is refused before rendering. `templates: {}`
 * gives them an empty file system of their own: liquidjs otherwise reads `include`, `render`
 * and `layout` files from the process's working directory (the operator token among them).
 */
// liquidjs's own escape_once, called as the engine calls a filter (its `this` holds the context).
const escapeOnce = new Liquid().filters.escape_once as (this: unknown, value: unknown) => string;
const ENGINE = {
  strictVariables: true,
  lenientIf: true,
  strictFilters: true,
  ownPropertyOnly: true,
  templates: {},
  parseLimit: 1_000_000,
  renderLimit: 2_000,
  memoryLimit: 20_000_000,
};
export const htmlLiquid = new Liquid({
  ...ENGINE,
  outputEscape(this: unknown, value: unknown): string {
    return escapeOnce.call(this, value);
  },
});
export const plainLiquid = new Liquid(ENGINE);

/** The deepest block nesting a template may use: far beyond any real email's markup. */
export const MAX_BLOCK_DEPTH = 20;
const REJECTED_TAGS = [
  'include',
  'render',
  'layout',
  'block',
  'increment',
  'decrement',
  'ifchanged',
];
const REJECTED_FILTERS = ['money', 'format_date', 'format_time', 'json', 'inspect', 'type'];
const BLOCK_TAGS = new Set(['if', 'unless', 'for', 'case', 'capture', 'tablerow', 'comment']);
/**
 * Outputs and tags. A try never runs past the next opener (`{{` or `{%`), so markup that never
 * closes costs one linear scan, not one to the end of the source per opener.
 */
const LIQUID_MARKUP =
  /\{\{-?((?:(?!\{\{|\{%)[\s\S])*?)-?\}\}|\{%-?\s*([a-z_]+)((?:(?!\{\{|\{%)[\s\S])*?)-?%\}/g;
const FILTER = /\|\s*([a-z_]+)/g;
const EMPTY_COMPARISON = /(==|!=|<>)\s*(empty|blank)\b|\b(empty|blank)\s*(==|!=|<>)/;

/**
 * Each tag (or undefined for an output) with its expression, in order. A `{% liquid %}` tag is
 * the tags of its lines (`{% liquid include "x" %}` is an include), so none hides inside one.
 */
function* tagsAndExpressions(source: string): Generator<[string | undefined, string]> {
  for (const match of source.matchAll(LIQUID_MARKUP)) {
    const tag = match[2];
    const expression = match[1] ?? match[3] ?? '';
    if (tag !== 'liquid') {
      yield [tag, expression];
      continue;
    }
    for (const line of expression.split('\n')) {
      const [, lineTag, rest] = /^\s*([a-z_]+)?([\s\S]*)$/.exec(line) ?? [];
      if (lineTag || rest.trim()) yield [lineTag, rest];
    }
  }
}

/**
 * What in `source` cannot be published, worded for its author (empty when it can): Liquid that
 * does not parse, and the constructs the SDK lists as refused on submit.
 */
export function liquidProblems(source: string, engine: Liquid = htmlLiquid): string[] {
  const problems: string[] = [];
  let depth = 0;
  let deepest = 0;
  for (const [tag, expression] of tagsAndExpressions(source)) {
    if (tag && REJECTED_TAGS.includes(tag))
      problems.push(`the {% ${tag} %} tag is not supported in email templates: remove it`);
    if (tag && BLOCK_TAGS.has(tag)) deepest = Math.max(deepest, ++depth);
    if (tag?.startsWith('end') && BLOCK_TAGS.has(tag.slice(3))) depth--;
    for (const [, filter] of expression.matchAll(FILTER))
      if (REJECTED_FILTERS.includes(filter))
        problems.push(`the ${filter} filter is not supported in email templates: remove it`);
    if (EMPTY_COMPARISON.test(expression))
      problems.push('comparing against empty or blank is not supported: use .size == 0 instead');
  }
  if (deepest > MAX_BLOCK_DEPTH)
    problems.push(`blocks are nested ${deepest} deep; at most ${MAX_BLOCK_DEPTH} are supported`);
  if (problems.length === 0) {
    try {
      engine.parse(source);
    } catch (err) {
      problems.push(`the Liquid does not parse: ${(err as Error).message}`);
    }
  }
  return [...new Set(problems)];
}

/** A template's variables: the root names it reads, `bird` aside; and the `bird.contact` keys. */
export interface TemplateVariables {
  parameters: string[];
  contactKeys: string[];
  usesLoop: boolean;
}

export function variablesOf(parsed: Template[][]): TemplateVariables {
  const parameters = new Set<string>();
  const contactKeys = new Set<string>();
  let usesLoop = false;
  for (const templates of parsed) {
    for (const segments of plainLiquid.globalVariableSegmentsSync(templates)) {
      const [root, second, third] = segments;
      if (root === 'bird') {
        if (second === 'contact' && typeof third === 'string') contactKeys.add(third);
      } else if (typeof root === 'string') parameters.add(root);
    }
    if (!usesLoop) usesLoop = containsLoop(templates);
  }
  return { parameters: [...parameters].sort(), contactKeys: [...contactKeys].sort(), usesLoop };
}

function containsLoop(templates: Template[]): boolean {
  return templates.some((template) => {
    const name = (template as { name?: string }).name;
    if (name === 'for' || name === 'tablerow') return true;
    if (!template.children) return false;
    // `children` is a generator whose return value is the nested templates.
    const walk = template.children(true, true);
    let step = walk.next();
    while (!step.done) step = walk.next();
    return containsLoop(step.value);
  });
}

/** `<p>Hi</p><p>there</p>` -> `Hi\n\nthere`: the plain-text alternative of an HTML body. */
export function textFromHtml(html: string): string {
  // Each pattern stops at the next tag's `<` (or the next element of its kind), so unclosed
  // markup is one linear scan, not one to the end of the body per tag.
  return html
    .replace(/<(head|style|script|title)\b(?:(?!<\1\b)[\s\S])*?<\/\1\s*>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr|table|blockquote)\s*>/gi, '\n\n')
    .replace(/<li\b[^<>]*>/gi, '- ')
    .replace(/<a\b[^<>]*href="([^"<>]*)"[^<>]*>((?:(?!<a\b)[\s\S])*?)<\/a>/gi, '$2 ($1)')
    .replace(/<[^<>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Text made safe to place in HTML: it can never open an element or an attribute. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/**
 * The hidden preheader publishing folds into the top of the HTML (inside `<body>` if any). The
 * preview text is plain text, escaped here: `<title>` in it would otherwise swallow the body.
 */
export function foldPreviewText(html: string, previewText: string): string {
  const preheader = `<div style="display:none;max-height:0;overflow:hidden;mso-hide:all">${escapeHtml(previewText)}</div>`;
  const body = /<body\b[^<>]*>/i.exec(html);
  if (!body) return preheader + html;
  const at = body.index + body[0].length;
  return html.slice(0, at) + preheader + html.slice(at);
}
