export * from './page';
export * from './cursor-codec';
export * from './keyset-paginator';
