/**
 * What a template's Meta components (`GraphTemplate.components`: `{type: 'BODY', text: 'Hi {{1}}'}`,
 * `{type: 'BUTTONS', buttons: [...]}`, ...) leave for a send to fill: its slots.
 */

/** One of Meta's template components, as `GET /{waba_id}/message_templates` gives it. */
export type MetaTemplateComponent = Record<string, unknown>;

/** The placeholders of a text: `{{1}} {{2}}` (positional) or `{{first_name}}` (named). */
export interface TextSlots {
  kind: 'text';
  named: boolean;
  /** Positional: `['1', '2']` in order; named: the declared names. */
  names: string[];
}

/** A media or location header, filled by one parameter of its `format`. */
export interface MediaSlot {
  kind: 'media';
  format: string;
}

/** A button whose value varies: a URL with a placeholder, a coupon code, a one-time passcode. */
export interface ButtonSlot {
  /** Its position among all the template's buttons (Meta's `index`). */
  index: number;
  subType: 'url' | 'copy_code' | 'otp';
  /** How many values it takes (a URL's placeholders; 1 for a code). */
  count: number;
}

export interface PartSlots {
  header?: TextSlots | MediaSlot;
  body?: TextSlots;
  buttons: ButtonSlot[];
}

export interface TemplateSlots extends PartSlots {
  /** A carousel's cards, in the order the template was approved with. */
  cards?: PartSlots[];
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** The placeholders of `text`, or undefined when it has none. */
export function textSlots(text: unknown): TextSlots | undefined {
  if (typeof text !== 'string') return undefined;
  const names = [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1]))];
  if (names.length === 0) return undefined;
  const named = names.some((name) => !/^\d+$/.test(name));
  return {
    kind: 'text',
    named,
    names: named ? names : names.sort((a, b) => Number(a) - Number(b)),
  };
}

const lower = (value: unknown, fallback = '') =>
  (typeof value === 'string' ? value : fallback).toLowerCase();
const typeOf = (component: MetaTemplateComponent) => lower(component.type);
const asList = (value: unknown): MetaTemplateComponent[] =>
  Array.isArray(value)
    ? value.filter(
        (item): item is MetaTemplateComponent => typeof item === 'object' && item !== null,
      )
    : [];

function buttonSlots(buttons: MetaTemplateComponent[]): ButtonSlot[] {
  return buttons.flatMap((button, index): ButtonSlot[] => {
    const type = typeOf(button);
    if (type === 'url') {
      const slots = textSlots(button.url);
      return slots ? [{ index, subType: 'url', count: slots.names.length }] : [];
    }
    if (type === 'copy_code') return [{ index, subType: 'copy_code', count: 1 }];
    if (type === 'otp') return [{ index, subType: 'otp', count: 1 }];
    return [];
  });
}

function partSlots(components: MetaTemplateComponent[]): PartSlots {
  const slots: PartSlots = { buttons: [] };
  for (const component of components) {
    const type = typeOf(component);
    if (type === 'header') {
      const format = lower(component.format, 'TEXT');
      slots.header = format === 'text' ? textSlots(component.text) : { kind: 'media', format };
    } else if (type === 'body') slots.body = textSlots(component.text);
    else if (type === 'buttons') slots.buttons = buttonSlots(asList(component.buttons));
  }
  return slots;
}

/** The slots of a template from its Meta components. */
export function templateSlots(components: MetaTemplateComponent[]): TemplateSlots {
  const slots: TemplateSlots = partSlots(components);
  const carousel = components.find((component) => typeOf(component) === 'carousel');
  if (carousel)
    slots.cards = asList(carousel.cards).map((card) => partSlots(asList(card.components)));
  return slots;
}
