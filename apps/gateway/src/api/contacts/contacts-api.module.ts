import { Module } from '@nestjs/common';
import { AudiencesController } from './audiences.controller';
import { ContactPropertiesController } from './contact-properties.controller';
import { ContactsController } from './contacts.controller';
/** Contacts, contact properties and audiences, answered by the workspace-objects service. */
@Module({ controllers: [ContactsController, ContactPropertiesController, AudiencesController] })
export class ContactsApiModule {}
