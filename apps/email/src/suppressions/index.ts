export { SuppressionsModule } from './suppressions.module';
export { SuppressionsService } from './suppressions.service';
export type { BouncedRecipient } from './suppressions.service';
export { suppressionCreatedEvent } from './suppression-events';
