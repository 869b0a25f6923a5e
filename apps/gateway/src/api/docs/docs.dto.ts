import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import type { DocsContents } from '@switchboard/contracts';

export class SearchDocsQuery {
  @IsString() @MinLength(1) @MaxLength(500) q: string;
  @IsOptional()
  @IsString()
  @Matches(/^[a-z]{2}-[a-z]{2}$/, { message: 'locale must look like en-us' })
  locale: string = 'en-us';
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(25) limit: number = 10;
  @IsOptional() @IsIn(['snippet', 'highlights']) contents: DocsContents = 'snippet';
}

export class ReadDocsPageQuery {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @Matches(/^[a-z0-9][a-z0-9/_.-]*$/i, {
    message: 'slug must be a page slug such as guides/idempotency',
  })
  slug: string;
  @IsOptional()
  @IsString()
  @Matches(/^[a-z]{2}-[a-z]{2}$/, { message: 'locale must look like en-us' })
  locale: string = 'en-us';
  @IsOptional() @IsIn(['json', 'markdown']) format: 'json' | 'markdown' = 'json';
}
