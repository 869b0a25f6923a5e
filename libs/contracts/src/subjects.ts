import type { ServiceName } from './services';

/** Readiness probe every service answers: its database and handlers are up. */
export function healthSubject(service: ServiceName): string {
  return `${service}.health.check`;
}

export const DocsSubjects = {
  Search: 'docs.search.query',
  ReadPage: 'docs.page.read',
} as const;
