export * from './stats.errors';
export * from './stats-zone';
export * from './stats-query';
export * from './stats-figures';
export * from './latency-sketch';
export * from './sms-stats';
export * from './whatsapp-stats';
export * from './email-stats';
