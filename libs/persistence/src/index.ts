export * from './ids';
export * from './data-source';
export * from './migrate';
export * from './readiness';
export * from './pg-errors';
export * from './embedded-postgres';
export * from './idempotency/idempotent-write';
export * from './pagination';
