/** Content types inferred from a filename's extension when an attachment names none. */
const BY_EXTENSION: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  ico: 'image/vnd.microsoft.icon',
  txt: 'text/plain',
  csv: 'text/csv',
  htm: 'text/html',
  html: 'text/html',
  ics: 'text/calendar',
  vcf: 'text/vcard',
  json: 'application/json',
  xml: 'application/xml',
  zip: 'application/zip',
  gz: 'application/gzip',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  rtf: 'application/rtf',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
};

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/** Extensions of programs and scripts a mail client could run (Windows, macOS, Unix, Java). */
const BLOCKED_EXTENSIONS = new Set([
  'exe',
  'bat',
  'cmd',
  'com',
  'js',
  'jse',
  'mjs',
  'vbs',
  'vbe',
  'vb',
  'scr',
  'msi',
  'msp',
  'mst',
  'jar',
  'sh',
  'bash',
  'csh',
  'ksh',
  'zsh',
  'command',
  'ps1',
  'psm1',
  'psd1',
  'pif',
  'cpl',
  'hta',
  'wsf',
  'wsh',
  'ws',
  'wsc',
  'reg',
  'lnk',
  'dll',
  'sys',
  'scf',
  'inf',
  'ins',
  'isp',
  'gadget',
  'msc',
  'application',
  'appref-ms',
  'app',
  'apk',
  'run',
  'xbap',
  'jnlp',
]);

/** Types of programs and scripts, compared without parameters. */
const BLOCKED_TYPES = new Set([
  'application/x-msdownload',
  'application/x-msdos-program',
  'application/x-dosexec',
  'application/x-ms-installer',
  'application/x-msi',
  'application/x-ms-shortcut',
  'application/vnd.microsoft.portable-executable',
  'application/x-executable',
  'application/x-elf',
  'application/x-mach-binary',
  'application/x-sh',
  'application/x-csh',
  'application/x-shellscript',
  'text/x-shellscript',
  'text/x-sh',
  'application/x-bat',
  'application/bat',
  'application/x-powershell',
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'text/javascript',
  'text/ecmascript',
  'text/jscript',
  'text/vbscript',
  'application/x-vbscript',
  'application/hta',
  'application/java-archive',
  'application/x-java-archive',
  'application/x-java-jnlp-file',
  'application/vnd.android.package-archive',
  'application/x-apple-diskimage',
]);

/** A MIME type: `type/subtype` tokens, optionally followed by `; parameters`. */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;
const PARAMETERS = /^[\x20-\x7e]{0,500}$/;

function extensionOf(filename: string): string {
  // Windows ignores trailing dots and spaces: `run.exe.` is `run.exe`.
  const name = filename.replace(/[. ]+$/, '');
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The type inferred from the filename's extension, or application/octet-stream. */
export function inferContentType(filename: string): string {
  return BY_EXTENSION[extensionOf(filename)] ?? DEFAULT_CONTENT_TYPE;
}

/**
 * A given type normalised (media type lowercased, parameters kept), or undefined when it is not
 * a MIME type.
 */
export function normaliseContentType(given: string): string | undefined {
  const [media, ...rest] = given.split(';');
  const type = media.trim().toLowerCase();
  if (!MEDIA_TYPE.test(type)) return undefined;
  const parameters = rest.join(';').trim();
  if (!PARAMETERS.test(parameters)) return undefined;
  return parameters ? `${type}; ${parameters}` : type;
}

/**
 * `multipart/*` and `message/*`: the structure of a mail itself. An attachment of such a type is
 * written into the message as that structure (a boundary its content chooses, an embedded
 * message copied unencoded), which breaks the MIME tree and the DKIM body hash.
 */
export function isStructuralContentType(contentType: string): boolean {
  return /^(multipart|message)\//.test(contentType);
}

export function isBlockedContentType(contentType: string): boolean {
  return BLOCKED_TYPES.has(contentType.split(';')[0].trim().toLowerCase());
}

export function isBlockedFilename(filename: string): boolean {
  return BLOCKED_EXTENSIONS.has(extensionOf(filename));
}
