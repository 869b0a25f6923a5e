// Shared jest settings: swc transpiles TypeScript and the ESM-only NestJS 12 packages to CommonJS.
const { compilerOptions } = require('./tsconfig.base.json');

// The TS path aliases, as jest patterns: `@switchboard/app-*` -> `^@switchboard/app-(.*)$`, the `*` of
// the target becoming the captured `$1` (the same substitution tsc and swc make).
const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  const pattern = alias.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace('*', '(.*)');
  moduleNameMapper[`^${pattern}$`] = `<rootDir>/${target.replace('*', '$1')}`;
}

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j|mj)s$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|cookie|@messagebird)/)'],
  moduleNameMapper,
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
};
