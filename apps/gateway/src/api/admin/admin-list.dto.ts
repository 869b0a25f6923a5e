import { IsIn, IsOptional } from 'class-validator';
import { ManagementPageQuery } from '../../pipeline/http/list-query.dto';

export class ListWorkspacesQuery extends ManagementPageQuery {
  @IsOptional()
  @IsIn(['created_at', 'name'], { message: 'sort must be one of created_at, name' })
  sort: 'created_at' | 'name' = 'created_at';
}
