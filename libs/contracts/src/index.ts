export * from './error-catalog';
export * from './error-envelope';
export * from './services';
export * from './subjects';
export * from './request-context';
export * from './docs';
export * from './realtime';
