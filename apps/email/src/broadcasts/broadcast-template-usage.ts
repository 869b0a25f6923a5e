import { Injectable } from '@nestjs/common';
import { EmailTemplateErrors } from '@switchboard/contracts';
import type { SqlRunner } from '@switchboard/persistence';
import { AppError } from '@switchboard/platform';
import type { TemplateUsage } from '../templates';
import { BroadcastsRepository } from './broadcasts.repository';

/**
 * A template is deletable unless a `scheduled` or `accepted` broadcast uses it: those have not
 * pinned the version they will send yet. A sending one kept a snapshot of the version it pinned
 * (its preparation reads that after a restart) and does not block.
 */
@Injectable()
export class BroadcastTemplateUsage implements TemplateUsage {
  constructor(private readonly repository: BroadcastsRepository) {}

  async assertDeletable(runner: SqlRunner, workspaceId: string, templateId: string) {
    if (await this.repository.templateInUse(runner, workspaceId, templateId))
      throw new AppError(EmailTemplateErrors.EmailTemplateInUse);
  }
}
