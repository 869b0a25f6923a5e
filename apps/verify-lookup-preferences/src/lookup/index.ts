export { LookupModule } from './lookup.module';
