export { BusinessAccountsModule } from './business-accounts.module';
export { BusinessAccountsRepository } from './business-accounts.repository';
