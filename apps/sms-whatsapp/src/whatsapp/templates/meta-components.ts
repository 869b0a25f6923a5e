import { createHash } from 'node:crypto';
import type { WhatsAppTemplateLanguage } from '@switchboard/contracts';

/** The SDK's `WhatsAppTemplateComponent` (not exported by name). */
export type WhatsAppTemplateComponent = WhatsAppTemplateLanguage['components'][number];

/** One of Meta's template components as `GET /{waba_id}/message_templates` lists it. */
export type MetaComponent = Record<string, unknown>;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type ExampleParameter = NonNullable<WhatsAppTemplateComponent['example_parameters']>[number];
type Button = NonNullable<WhatsAppTemplateComponent['buttons']>[number];

const lower = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : undefined);
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/** Meta's `example` of a header or body as the SDK's `example_parameters`, in placeholder order. */
function examplesOf(component: MetaComponent, format: string | undefined): ExampleParameter[] {
  const example = record(component.example);
  const named = [
    ...list(example.body_text_named_params),
    ...list(example.header_text_named_params),
  ].map(record);
  if (named.length > 0)
    return named.map((param) => ({
      type: 'text',
      text: text(param.example),
      name: text(param.param_name),
    }));
  const positional = [...list(list(example.body_text)[0]), ...list(example.header_text)];
  if (positional.length > 0)
    return positional.map((value) => ({ type: 'text', text: text(value) }));
  return list(example.header_handle).map((url) => ({ type: format ?? 'image', url: text(url) }));
}

function buttonOf(meta: Record<string, unknown>): Button {
  const button: Mutable<Button> = { type: lower(meta.type) ?? 'unknown' };
  const otpType = lower(meta.otp_type);
  if (otpType !== undefined) button.otp_type = otpType;
  if (text(meta.text) !== undefined) button.text = text(meta.text);
  if (text(meta.url) !== undefined) button.url = text(meta.url);
  if (text(meta.phone_number) !== undefined) button.phone_number = text(meta.phone_number);
  const examples = (Array.isArray(meta.example) ? meta.example : meta.example ? [meta.example] : [])
    .map(text)
    .filter((value) => value !== undefined);
  if (examples.length > 0)
    button.example_parameters = examples.map((value) => ({ type: 'text', text: value }));
  return button;
}

/** One of Meta's components in the SDK's shape (lowercase types, `example_parameters`). */
export function componentOf(meta: MetaComponent): WhatsAppTemplateComponent {
  const format = lower(meta.format);
  const component: Mutable<WhatsAppTemplateComponent> = { type: lower(meta.type) ?? 'unknown' };
  if (format !== undefined) component.format = format;
  if (text(meta.text) !== undefined) component.text = text(meta.text);
  if (typeof meta.add_security_recommendation === 'boolean')
    component.add_security_recommendation = meta.add_security_recommendation;
  if (typeof meta.code_expiration_minutes === 'number')
    component.code_expiration_minutes = meta.code_expiration_minutes;
  const examples = examplesOf(meta, format);
  if (examples.length > 0) component.example_parameters = examples;
  if (Array.isArray(meta.buttons)) component.buttons = meta.buttons.map(record).map(buttonOf);
  if (Array.isArray(meta.cards))
    component.cards = meta.cards.map(record).map((card) => ({
      components: list(card.components)
        .map(record)
        .map((inner) => componentOf(inner)),
    }));
  return component;
}

export function componentsOf(meta: readonly MetaComponent[]): WhatsAppTemplateComponent[] {
  return meta.map(componentOf);
}

/** JSON with keys sorted, so equal content hashes equally whatever order Meta sent keys in. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, inner]) => inner !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${stableJson(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The SDK's `content_hash`: `sha256:` and the hex hash of the components the API surfaces. */
export function contentHashOf(meta: readonly MetaComponent[]): string {
  return `sha256:${createHash('sha256')
    .update(stableJson(componentsOf(meta)))
    .digest('hex')}`;
}
