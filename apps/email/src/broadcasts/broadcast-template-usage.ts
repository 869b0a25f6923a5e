import { Injectable } from '@nestjs/common';
import { EmailTemplateErrors } from '@switchboard/contracts';
import type { SqlRunner } from '@switchboard/persistence';
import { AppError } from '@switchboard/platform';
import type { TemplateUsage } from '../templates';
import { BroadcastsRepository } from './broadcasts.repository';

/**
 * A template is deletable unless a `scheduled` or `accepted` broadcast uses it: those have not
 * pinned the version they will send yet. One that is sending froze its version and does not block.
 */
@Injectable()
export class BroadcastTemplateUsage implements TemplateUsage {
  constructor(private readonly repository: BroadcastsRepository) {}

  async assertDeletable(runner: SqlRunner, workspaceId: string, templateId: string) {
    if (await this.repository.templateInUse(runner, workspaceId, templateId))
      throw new AppError(EmailTemplateErrors.EmailTemplateInUse);
  }
}
