export * from './postgres';
export * from './nats-server';
export * from './processes';
export * from './api';
export { freePort } from '@switchboard/platform';
export * from './smtp-sink';
export * from './dns-server';
export type { RunningPostgres } from '@switchboard/embedded-postgres';
export * from './validation-failure';
