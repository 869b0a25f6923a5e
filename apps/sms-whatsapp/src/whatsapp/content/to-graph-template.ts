import type {
  WhatsAppTemplateComponentSend,
  WhatsAppTemplateParameterSend,
  WhatsAppTemplateSend,
} from '@switchboard/contracts';
import { templateSlots } from './template-slots';
import type { ButtonSlot, MetaTemplateComponent, PartSlots } from './template-slots';

/** The template a send resolved to, as Meta knows it: its name, language code and components. */
export interface ResolvedGraphTemplate {
  /** Meta's template name. */
  name: string;
  /** Meta's language code of the variant sent (`en_US`, `pt_BR`). */
  language: string;
  /** Meta's components of that variant (they say which buttons take a value, and their index). */
  components: MetaTemplateComponent[];
}

/** One parameter as Meta takes it: `{type: 'text', text}`, `{type: 'image', image: {link}}`... */
function graphParameter(parameter: WhatsAppTemplateParameterSend): Record<string, unknown> {
  const named = parameter.name === undefined ? {} : { parameter_name: parameter.name };
  if (parameter.type === 'text') return { type: 'text', text: parameter.text, ...named };
  if (parameter.type === 'location')
    return { type: 'location', location: parameter.location, ...named };
  return { type: parameter.type, [parameter.type]: { link: parameter.url }, ...named };
}

/** A value of a button: a URL's placeholder, a coupon code, or a one-time passcode (sent as a URL value). */
function graphButton(slot: ButtonSlot, parameters: WhatsAppTemplateParameterSend[]) {
  const values = parameters.map((parameter) => parameter.text ?? '');
  if (slot.subType === 'copy_code')
    return {
      type: 'button',
      sub_type: 'copy_code',
      index: String(slot.index),
      parameters: [{ type: 'coupon_code', coupon_code: values[0] }],
    };
  return {
    type: 'button',
    sub_type: 'url',
    index: String(slot.index),
    parameters: values.map((text) => ({ type: 'text', text })),
  };
}

/** The components of one part (the template or a card), button parts matched to their slots in order. */
function graphComponents(slots: PartSlots, components: WhatsAppTemplateComponentSend[]) {
  let buttonIndex = 0;
  return components.flatMap((component): Array<Record<string, unknown>> => {
    const parameters = component.parameters ?? [];
    if (component.type === 'button') {
      const slot = slots.buttons[buttonIndex++];
      return slot ? [graphButton(slot, parameters)] : [];
    }
    return [{ type: component.type, parameters: parameters.map(graphParameter) }];
  });
}

/** Meta's `template` object of a send whose parameters `checkTemplateParameters` accepted. */
export function toGraphTemplate(send: WhatsAppTemplateSend, resolved: ResolvedGraphTemplate) {
  const slots = templateSlots(resolved.components);
  const components = send.components ?? [];
  const graph = graphComponents(
    slots,
    components.filter((component) => component.type !== 'carousel'),
  );
  const carousel = components.find((component) => component.type === 'carousel');
  if (carousel && slots.cards) {
    const cardSlots = slots.cards;
    graph.push({
      type: 'carousel',
      cards: (carousel.cards ?? []).map((card, index) => ({
        card_index: index,
        components: graphComponents(cardSlots[index] ?? { buttons: [] }, card.components),
      })),
    });
  }
  return {
    name: resolved.name,
    language: { policy: 'deterministic', code: resolved.language },
    ...(graph.length > 0 && { components: graph }),
  };
}
