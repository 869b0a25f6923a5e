export { WhatsAppNumbersModule } from './whatsapp-numbers.module';
export { WhatsAppNumbersRepository } from './whatsapp-numbers.repository';
export type { NewNumberEvent, WhatsAppNumberEventRow } from './whatsapp-number.row';
export type { WhatsAppNumberRow } from './whatsapp-number.row';
export { NumberReadsModule } from './number-reads.module';
export { MetaSyncModule } from './meta-sync.module';
export { MetaSyncRunner } from './meta-sync.runner';
