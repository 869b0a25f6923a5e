import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQuery } from '../../pipeline/http/list-query.dto';

/** `status=connected,pending` or repeated, as one array. */
const CommaList = () =>
  Transform(({ value }: { value: unknown }) =>
    (Array.isArray(value) ? value : [value]).flatMap((item: unknown) =>
      typeof item === 'string' ? item.split(',').filter(Boolean) : [item],
    ),
  );

/** Sorted pages of the WhatsApp lists: `created_at` only, newest first by default. */
class SortedPageQuery extends PageQuery {
  @IsOptional() @IsIn(['created_at'], { message: 'sort must be created_at' }) sort?: 'created_at';
  @IsOptional() @IsIn(['asc', 'desc']) order?: 'asc' | 'desc';
}

/**
 * The SDK's `WhatsappNumbersListQuery`. A status outside the SDK's vocabulary matches nothing
 * rather than being refused (the enum is open), as an unknown WABA or phone number does.
 */
export class ListWhatsAppNumbersQuery extends SortedPageQuery {
  @IsOptional() @IsString() @MaxLength(64) waba?: string;
  @IsOptional() @IsString() @MaxLength(40) phone_number?: string;
  @IsOptional()
  @CommaList()
  @IsString({ each: true })
  @MaxLength(40, { each: true })
  status?: string[];
  @IsOptional()
  @IsIn(['system', 'workspace'], { message: 'scope must be system or workspace' })
  scope?: 'system' | 'workspace';
}

export class ListWhatsAppNumberEventsQuery extends SortedPageQuery {}

export class ListWhatsAppBusinessAccountsQuery extends SortedPageQuery {}
