import { ErrorCatalog } from '@switchboard/contracts';
import type { ErrorCode } from '@switchboard/contracts';
import type { DocPage } from './doc-page';
import { buildDocPage, pageUrl } from './doc-page';

/** Every `doc_url` points at `errors/<code>`: one page per code, generated from the catalog. */
function errorPageSlug(code: ErrorCode): string {
  return `errors/${code}`;
}

function errorCodePage(code: ErrorCode): DocPage {
  const error = ErrorCatalog[code];
  const markdown = [
    `# ${code} ${error.name}`,
    '',
    `- HTTP status: ${error.status}`,
    `- Type: \`${error.type}\``,
    `- Name: \`${error.name}\``,
    `- Default message: ${error.message}`,
    '',
    error.description,
    '',
    `The error arrives in the [error envelope](${pageUrl('guides/errors')}); see [all error codes](${pageUrl('errors')}).`,
    '',
  ].join('\n');
  return buildDocPage(errorPageSlug(code), markdown);
}

function errorIndexPage(codes: ErrorCode[]): DocPage {
  const rows = codes.map((code) => {
    const { status, type, name, message } = ErrorCatalog[code];
    return `| [${code}](${pageUrl(errorPageSlug(code))}) | ${status} | \`${type}\` | ${name} | ${message} |`;
  });
  const markdown = [
    '# Error codes',
    '',
    `Every failed response carries one of these codes in \`error.code\`, and its \`doc_url\` links the code's page. Branch on \`type\` and \`code\`, never on \`message\`. The envelope is described in [Errors](${pageUrl('guides/errors')}).`,
    '',
    '| Code | Status | Type | Name | Meaning |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  return buildDocPage('errors', markdown);
}

export function errorPages(): DocPage[] {
  const codes = Object.keys(ErrorCatalog) as ErrorCode[];
  return [errorIndexPage(codes), ...codes.map(errorCodePage)];
}
