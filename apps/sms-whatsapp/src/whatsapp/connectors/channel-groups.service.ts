import { Injectable } from '@nestjs/common';
import type {
  ChannelGroup,
  ListChannelGroupsRequest,
  RequestContext,
  TokenPage,
} from '@switchboard/contracts';
import { CommonErrors } from '@switchboard/contracts';
import { CursorCodec, tokenPage } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { toChannelGroup } from './connector.row';
import { ConnectorsRepository } from './connectors.repository';

/** The workspace API's channel groups: one per connected WhatsApp Business Account. */
@Injectable()
export class ChannelGroupsService {
  constructor(
    private readonly connectors: ConnectorsRepository,
    private readonly cursors: CursorCodec,
  ) {}

  async list(
    context: RequestContext,
    input: ListChannelGroupsRequest,
  ): Promise<TokenPage<ChannelGroup>> {
    const workspaceId = workspaceOf(context);
    if (input.workspace_id !== workspaceId) throw new AppError(CommonErrors.WorkspaceMismatch);
    const page = await this.connectors.listChannelGroups(
      workspaceId,
      { limit: input.limit, starting_after: input.pageToken },
      this.cursors,
    );
    return tokenPage({ ...page, data: page.data.map(toChannelGroup) });
  }
}
