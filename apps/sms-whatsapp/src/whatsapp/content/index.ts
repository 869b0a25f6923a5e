// The content of a WhatsApp send and its mapping to and from Meta's message shapes (pure, no database).
export { validateWhatsAppSend, parseRecipient } from './send-validation';
export { checkTemplateParameters, checkTemplateRecipient } from './template-parameters';
export { templateSlots } from './template-slots';
export type { MetaTemplateComponent, TemplateSlots } from './template-slots';
export { normaliseLanguageTag } from './template.rules';
export { graphAddress, toGraphMessage } from './to-graph';
export type { GraphTarget } from './to-graph';
export { toGraphTemplate } from './to-graph-template';
export type { ResolvedGraphTemplate } from './to-graph-template';
export { fromGraphInbound } from './from-graph';
export type { InboundContext } from './from-graph';
export { echoContent } from './echo-content';
export type { EchoedTemplate } from './echo-content';
