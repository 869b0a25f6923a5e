import { WhatsAppContentErrors } from '@switchboard/contracts';
import type {
  WhatsAppRecipient,
  WhatsAppTemplateComponentSend,
  WhatsAppTemplateParameterSend,
} from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { contentProblemsError, problemCollector } from './content-problems';
import type { Report } from './content-problems';
import { templateSlots } from './template-slots';
import type { MediaSlot, MetaTemplateComponent, PartSlots, TextSlots } from './template-slots';

const MISMATCH = WhatsAppContentErrors.WhatsAppTemplateParameterMismatch;

/** Text parameters against a text's placeholders: positional in order, or every name once. */
function checkTextParameters(
  slots: TextSlots,
  parameters: WhatsAppTemplateParameterSend[],
  at: string,
  what: string,
  report: Report,
): void {
  parameters.forEach((parameter, index) => {
    if (parameter.type !== 'text')
      report(`${at}[${index}].type`, `must be text: the ${what} has text placeholders`, MISMATCH);
  });
  if (!slots.named) {
    if (parameters.length !== slots.names.length)
      report(
        at,
        `must hold ${slots.names.length} parameters for the ${what}'s {{1}}..{{${slots.names.length}}}, not ${parameters.length}`,
        MISMATCH,
      );
    parameters.forEach((parameter, index) => {
      if (parameter.name !== undefined)
        report(
          `${at}[${index}].name`,
          `must be left out: the ${what} takes positional parameters`,
          MISMATCH,
        );
    });
    return;
  }
  const given = new Set<string>();
  parameters.forEach((parameter, index) => {
    if (parameter.name === undefined)
      return report(
        `${at}[${index}].name`,
        `is required: the ${what} declares named parameters (${slots.names.join(', ')})`,
        MISMATCH,
      );
    if (!slots.names.includes(parameter.name))
      report(
        `${at}[${index}].name`,
        `names no parameter of the ${what} (it declares ${slots.names.join(', ')})`,
        MISMATCH,
      );
    else if (given.has(parameter.name))
      report(`${at}[${index}].name`, `repeats ${parameter.name}`, MISMATCH);
    given.add(parameter.name);
  });
  const missing = slots.names.filter((name) => !given.has(name));
  if (missing.length > 0) report(at, `is missing the ${what}'s ${missing.join(', ')}`, MISMATCH);
}

function checkMediaParameter(
  slot: MediaSlot,
  parameters: WhatsAppTemplateParameterSend[],
  at: string,
  report: Report,
): void {
  if (parameters.length !== 1)
    return report(
      at,
      `must hold 1 ${slot.format} parameter for the header, not ${parameters.length}`,
      MISMATCH,
    );
  if (parameters[0].type !== slot.format)
    report(
      `${at}[0].type`,
      `must be ${slot.format}: the header shows ${a(slot.format)} ${slot.format}`,
      MISMATCH,
    );
}

const a = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

/** The send's components of one part (the template, or one carousel card) against its slots. */
function checkPart(
  slots: PartSlots,
  components: WhatsAppTemplateComponentSend[],
  at: (i: number) => string,
  where: string,
  report: Report,
): void {
  const seen = new Set<string>();
  let buttonIndex = 0;
  components.forEach((component, i) => {
    const parameters = component.parameters ?? [];
    const path = `${at(i)}.parameters`;
    if (component.type === 'header' || component.type === 'body') {
      if (seen.has(component.type)) return report(at(i), `repeats the ${component.type}`, MISMATCH);
      seen.add(component.type);
      const slot = component.type === 'header' ? slots.header : slots.body;
      if (!slot)
        return report(
          at(i),
          `fills nothing: the ${where} has no ${component.type} value to fill`,
          MISMATCH,
        );
      if (slot.kind === 'media') return checkMediaParameter(slot, parameters, path, report);
      return checkTextParameters(slot, parameters, path, `${where}'s ${component.type}`, report);
    }
    if (component.type === 'button') {
      const slot = slots.buttons[buttonIndex++];
      if (!slot)
        return report(
          at(i),
          `fills nothing: the ${where} has ${slots.buttons.length} button${slots.buttons.length === 1 ? '' : 's'} that take a value (a quick reply takes none)`,
          MISMATCH,
        );
      if (parameters.length !== slot.count)
        report(
          path,
          `must hold ${slot.count} parameter${slot.count === 1 ? '' : 's'} for button ${slot.index + 1}, not ${parameters.length}`,
          MISMATCH,
        );
      parameters.forEach((parameter, p) => {
        if (parameter.type !== 'text')
          report(`${path}[${p}].type`, 'must be text: a button takes a text value', MISMATCH);
        // Meta takes a coupon code or a passcode of at most 15 characters, and refuses the
        // message after it was accepted otherwise.
        else if (slot.subType !== 'url' && [...(parameter.text ?? '')].length > BUTTON_CODE_LENGTH)
          report(
            `${path}[${p}].text`,
            `must be at most ${BUTTON_CODE_LENGTH} characters: WhatsApp's limit for a ${slot.subType === 'otp' ? 'passcode' : 'coupon code'}`,
          );
      });
    }
  });
  const header = slots.header;
  if (header && !seen.has('header'))
    report(
      at(components.length),
      `needs a header part: the ${where}'s header takes ${header.kind === 'media' ? `${a(header.format)} ${header.format}` : `${header.names.length} value(s)`}`,
      MISMATCH,
    );
  if (slots.body && !seen.has('body'))
    report(
      at(components.length),
      `needs a body part with ${slots.body.names.length} parameter(s) (${slots.body.names.join(', ')})`,
      MISMATCH,
    );
  if (buttonIndex < slots.buttons.length)
    report(
      at(components.length),
      `needs ${slots.buttons.length} button parts for the ${where}'s buttons that take a value, not ${buttonIndex}`,
      MISMATCH,
    );
}

/**
 * Checks a send's `template.components` against the resolved template's Meta components (with
 * their `{{1}}` or `{{name}}` placeholders); throws 422 `WhatsAppTemplateParameterMismatch`
 * naming every problem by its path.
 */
/** The longest coupon code or passcode a template button carries (Meta's limit). */
const BUTTON_CODE_LENGTH = 15;

export function checkTemplateParameters(
  metaComponents: MetaTemplateComponent[],
  sendComponents: WhatsAppTemplateComponentSend[] = [],
): void {
  const { problems, report } = problemCollector();
  const slots = templateSlots(metaComponents);
  const top = sendComponents.filter((component) => component.type !== 'carousel');
  const indexOf = new Map(top.map((component) => [component, sendComponents.indexOf(component)]));
  checkPart(
    slots,
    top,
    (i) => `template.components[${i < top.length ? indexOf.get(top[i]) : sendComponents.length}]`,
    'template',
    report,
  );
  const carousels = sendComponents
    .map((component, i) => ({ component, i }))
    .filter(({ component }) => component.type === 'carousel');
  if (carousels.length > 1)
    report(`template.components[${carousels[1].i}]`, 'repeats the carousel', MISMATCH);
  const carousel = carousels[0];
  if (!slots.cards && carousel)
    report(
      `template.components[${carousel.i}]`,
      'fills nothing: the template has no carousel',
      MISMATCH,
    );
  if (slots.cards && !carousel)
    report(
      `template.components[${sendComponents.length}]`,
      `needs a carousel part with ${slots.cards.length} cards`,
      MISMATCH,
    );
  if (slots.cards && carousel) {
    const cards = carousel.component.cards ?? [];
    const at = `template.components[${carousel.i}].cards`;
    if (cards.length !== slots.cards.length)
      report(
        at,
        `must hold ${slots.cards.length} cards, as the template was approved with, not ${cards.length}`,
        MISMATCH,
      );
    slots.cards.forEach((cardSlots, c) => {
      if (c < cards.length)
        checkPart(
          cardSlots,
          cards[c].components,
          (i) => `${at}[${c}].components[${i}]`,
          `card ${c + 1}`,
          report,
        );
    });
  }
  if (problems.length > 0) throw contentProblemsError(problems);
}

/** One-time-passcode templates go to a phone number only (422 otherwise). */
export function checkTemplateRecipient(category: string, to: WhatsAppRecipient): void {
  if (category.toLowerCase() === 'authentication' && to.kind === 'bsuid')
    throw new AppError(WhatsAppContentErrors.WhatsAppRecipientNotSupportedForTemplate, {
      param: 'to',
    });
}
