export * from './rate-limit.config';
export * from './rate-limit-headers';
export * from './rate-limit-quotas';
export * from './rate-limit.providers';
export * from './rate-limiter';
export * from './rate-limits.repository';
