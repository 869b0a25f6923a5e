import { Injectable } from '@nestjs/common';
import { NumbersErrors } from '@switchboard/contracts';
import type {
  ListSmsSendersRequest,
  RegisterSmsSenderRequest,
  RequestContext,
  SmsSender,
} from '@switchboard/contracts';
import { CursorCodec, IdempotentWrites, newId } from '@switchboard/persistence';
import type { Page } from '@switchboard/persistence';
import { AppError } from '@switchboard/platform';
import { checkedSender } from './sender-rules';
import { SmsSendersRepository } from './sms-senders.repository';
import type { SmsSenderRow } from './sms-senders.repository';

const toSmsSender = (row: SmsSenderRow): SmsSender => ({
  id: row.id,
  workspace_id: row.workspace_id,
  sender: row.sender,
  categories: row.categories,
  created_at: new Date(row.created_at).toISOString(),
});

/**
 * The alphanumeric senders the operator registers for a workspace (the operator API; the
 * workspace named in each request, the caller is the operator). The SMS send path reads the
 * same table to accept a `from`.
 */
@Injectable()
export class SmsSendersService {
  constructor(
    private readonly repository: SmsSendersRepository,
    private readonly writes: IdempotentWrites,
    private readonly cursors: CursorCodec,
  ) {}

  async register(context: RequestContext, input: RegisterSmsSenderRequest): Promise<SmsSender> {
    // A JSON null is an absent field: every category.
    const checked = checkedSender(input.sender, input.categories ?? undefined);
    if (Array.isArray(checked)) throw AppError.validation(checked);
    return this.writes.run(context, async (manager) => {
      const row = await this.repository.insert(manager, {
        id: newId('snd'),
        workspace_id: input.workspace_id,
        ...checked,
      });
      if (!row) throw new AppError(NumbersErrors.SmsSenderAlreadyRegistered);
      return toSmsSender(row);
    });
  }

  async list(_context: RequestContext, input: ListSmsSendersRequest): Promise<Page<SmsSender>> {
    const page = await this.repository.list(
      input.workspace_id,
      {
        limit: input.limit,
        starting_after: input.starting_after,
        ending_before: input.ending_before,
      },
      this.cursors,
    );
    return { ...page, data: page.data.map(toSmsSender) };
  }

  async remove(context: RequestContext, workspaceId: string, senderId: string): Promise<null> {
    return this.writes.run(context, async (manager) => {
      if (!(await this.repository.delete(manager, workspaceId, senderId)))
        throw new AppError(NumbersErrors.SmsSenderNotFound);
      return null;
    });
  }
}
