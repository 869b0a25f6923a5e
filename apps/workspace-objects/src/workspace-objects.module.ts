import type { DynamicModule } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { ServiceDataModule } from '@switchboard/persistence';
import { AudiencesHandler } from './audiences/audiences.handler';
import { AudiencesRepository } from './audiences/audiences.repository';
import { AudiencesService } from './audiences/audiences.service';
import { WORKSPACE_OBJECTS_CONFIG } from './config/workspace-objects.config';
import type { WorkspaceObjectsConfig } from './config/workspace-objects.config';
import { ContactPropertiesHandler } from './contact-properties/contact-properties.handler';
import { ContactPropertiesRepository } from './contact-properties/contact-properties.repository';
import { ContactPropertiesService } from './contact-properties/contact-properties.service';
import { ContactsHandler } from './contacts/contacts.handler';
import { ContactsRepository } from './contacts/contacts.repository';
import { ContactsService } from './contacts/contacts.service';
import { workspaceObjectsDatabase } from './database/workspace-objects.database';

/**
 * The workspace-objects service: the workspace's records. Contacts, contact properties and
 * audiences today; custom object types and records of the workspace API next.
 */
@Module({})
export class WorkspaceObjectsModule {
  static register(config: WorkspaceObjectsConfig): DynamicModule {
    return {
      module: WorkspaceObjectsModule,
      imports: [
        ServiceDataModule.forService({
          database: workspaceObjectsDatabase(config),
          health: 'workspace_objects',
          storage: config,
        }),
      ],
      controllers: [ContactsHandler, ContactPropertiesHandler, AudiencesHandler],
      providers: [
        { provide: WORKSPACE_OBJECTS_CONFIG, useValue: config },
        ContactsRepository,
        ContactPropertiesRepository,
        AudiencesRepository,
        ContactsService,
        ContactPropertiesService,
        AudiencesService,
      ],
    };
  }
}
