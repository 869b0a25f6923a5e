// Value rules several services share, Nest-free: DTOs and services call the same functions.
export * from './email-address';
export * from './phone-number';
export * from './timestamp';
