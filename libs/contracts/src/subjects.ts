/** The services that answer on the transport; each owns one Postgres schema of the same name. */
export const ServiceNames = [
  'docs',
  'email',
  'realtime',
  'sms_whatsapp',
  'verify_lookup_preferences',
  'workspace_objects',
  'conversations_connectors',
] as const;
export type ServiceName = (typeof ServiceNames)[number];

/** Readiness probe every service answers: its database and handlers are up. */
export function healthSubject(service: ServiceName): string {
  return `${service}.health.check`;
}

export const DocsSubjects = {
  Search: 'docs.search.query',
  ReadPage: 'docs.page.read',
} as const;
