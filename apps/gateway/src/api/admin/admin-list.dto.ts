import { IsIn, IsOptional } from 'class-validator';
import { ManagementPageQuery } from '../../pipeline/http/list-query.dto';

export class ListWorkspacesQuery extends ManagementPageQuery {
  @IsOptional()
  @IsIn(['created_at', 'name'], { message: 'sort must be one of created_at, name' })
  sort: 'created_at' | 'name' = 'created_at';
}

/** API keys and access keys list by creation time only. */
export class ListKeysQuery extends ManagementPageQuery {
  @IsOptional()
  @IsIn(['created_at'], { message: 'sort must be created_at' })
  sort = 'created_at' as const;
}

export class ListUsersQuery extends ManagementPageQuery {
  @IsOptional()
  @IsIn(['created_at', 'email'], { message: 'sort must be one of created_at, email' })
  sort: 'created_at' | 'email' = 'created_at';
}
