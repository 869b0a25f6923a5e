export * from './email-stats.module';
export * from './email-stats.consumer';
export * from './email-stats-fold';
