import type { MetaComponent } from './meta-components';

/**
 * What a send must fill in a template: per part, the keys of its placeholders (`1`, `2`... for
 * a positional template, the names for a named one), in order. The send helper compares the
 * send's `components` with this and answers `WhatsAppTemplateParameterMismatch` on any difference.
 */
export interface TemplatePlaceholders {
  /** `named` when the template declares `{{first_name}}`-style parameters; a send names each one. */
  parameterFormat: 'positional' | 'named';
  header: HeaderSlot | null;
  /** The body's placeholder keys, in order (each once). */
  body: string[];
  /** The buttons that take a value (Meta's `index` is the button's position among all of them). */
  buttons: ButtonSlot[];
  /** A carousel's cards, in order; empty when the template has none. */
  cards: CardSlots[];
}

export interface HeaderSlot {
  /** `text`, `image`, `video`, `gif`, `document` or `location`. */
  format: string;
  /** A text header's placeholder keys; a media or location header takes one value of its format. */
  parameters: string[];
}

export interface ButtonSlot {
  index: number;
  /** Meta's button type, lowercase: `url`, `copy_code`, `otp`. */
  type: string;
  /** How many values it takes (1 for each of these today). */
  parameters: number;
}

export interface CardSlots {
  header: HeaderSlot | null;
  body: string[];
  buttons: ButtonSlot[];
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** The distinct placeholder keys of a text, in order of first appearance. */
export function placeholderKeys(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  const keys: string[] = [];
  for (const [, key] of text.matchAll(PLACEHOLDER)) if (!keys.includes(key)) keys.push(key);
  return keys;
}

const lowerText = (value: unknown, fallback: string) =>
  typeof value === 'string' ? value.toLowerCase() : fallback;
const typeOf = (component: MetaComponent) => lowerText(component.type, '');

function headerOf(components: readonly MetaComponent[]): HeaderSlot | null {
  const header = components.find((component) => typeOf(component) === 'header');
  if (!header) return null;
  const format = lowerText(header.format, 'text');
  if (format === 'text') {
    const parameters = placeholderKeys(header.text);
    return parameters.length > 0 ? { format, parameters } : null;
  }
  return { format, parameters: [format] };
}

function buttonsOf(components: readonly MetaComponent[]): ButtonSlot[] {
  const block = components.find((component) => typeOf(component) === 'buttons');
  const buttons = Array.isArray(block?.buttons) ? (block.buttons as MetaComponent[]) : [];
  const slots: ButtonSlot[] = [];
  buttons.forEach((button, index) => {
    const type = typeOf(button);
    // A URL with a placeholder takes its suffix; a coupon its code; a passcode button its code.
    const takesValue =
      (type === 'url' && placeholderKeys(button.url).length > 0) ||
      type === 'copy_code' ||
      type === 'otp';
    if (takesValue) slots.push({ index, type, parameters: 1 });
  });
  return slots;
}

function partsOf(components: readonly MetaComponent[]) {
  const body = components.find((component) => typeOf(component) === 'body');
  return {
    header: headerOf(components),
    body: placeholderKeys(body?.text),
    buttons: buttonsOf(components),
  };
}

/** The placeholders of a template language's components, as Meta holds them. */
export function placeholdersOf(components: readonly MetaComponent[]): TemplatePlaceholders {
  const carousel = components.find((component) => typeOf(component) === 'carousel');
  const cards = Array.isArray(carousel?.cards)
    ? (carousel.cards as MetaComponent[]).map((card) =>
        partsOf(Array.isArray(card.components) ? (card.components as MetaComponent[]) : []),
      )
    : [];
  const parts = partsOf(components);
  const keys = [
    ...parts.body,
    ...(parts.header?.format === 'text' ? parts.header.parameters : []),
    ...cards.flatMap((card) => card.body),
  ];
  const named = keys.some((key) => !/^\d+$/.test(key));
  return { parameterFormat: named ? 'named' : 'positional', ...parts, cards };
}
