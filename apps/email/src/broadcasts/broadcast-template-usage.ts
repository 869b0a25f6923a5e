import { Injectable } from '@nestjs/common';
import { EmailTemplateErrors } from '@switchboard/contracts';
import type { SqlRunner } from '@switchboard/persistence';
import { AppError } from '@switchboard/platform';
import type { TemplateUsage } from '../templates';
import { BroadcastsRepository } from './broadcasts.repository';

/**
 * A template is deletable unless a broadcast still needs it: `scheduled` or `accepted` ones have
 * not pinned the version they will send yet, and a `sending` one reads its pinned version until
 * every message is prepared. Once prepared, its messages hold their content and it does not block.
 */
@Injectable()
export class BroadcastTemplateUsage implements TemplateUsage {
  constructor(private readonly repository: BroadcastsRepository) {}

  async assertDeletable(runner: SqlRunner, workspaceId: string, templateId: string) {
    if (await this.repository.templateInUse(runner, workspaceId, templateId))
      throw new AppError(EmailTemplateErrors.EmailTemplateInUse);
  }
}
