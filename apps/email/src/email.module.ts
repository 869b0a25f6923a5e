import type { DynamicModule } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { databaseReadiness, serviceTypeOrmOptions } from '@switchboard/persistence';
import { ServiceHealthModule } from '@switchboard/platform';
import type { EmailConfig } from './config/email.config';
import { emailDatabase } from './database/email.database';

/** The email service: email messages, batches, broadcasts, contacts, domains, inbound. */
@Module({})
export class EmailModule {
  static register(config: EmailConfig): DynamicModule {
    return {
      module: EmailModule,
      imports: [
        TypeOrmModule.forRoot(serviceTypeOrmOptions(emailDatabase(config))),
        ServiceHealthModule.forService('email', databaseReadiness('email')),
      ],
    };
  }
}
