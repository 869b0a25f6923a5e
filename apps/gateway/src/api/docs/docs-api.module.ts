import { Module } from '@nestjs/common';
import { DocsController } from './docs.controller';
/** Documentation search and pages, answered by the docs service. */
@Module({ controllers: [DocsController] })
export class DocsApiModule {}
