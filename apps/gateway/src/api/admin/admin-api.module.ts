import { Module } from '@nestjs/common';
import { AdminController } from './admin.controller';
/** The operator API (contract section 3): workspaces, keys and users. */
@Module({ controllers: [AdminController] })
export class AdminApiModule {}
