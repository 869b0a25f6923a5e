// ESLint flat config. `npm run lint` passes with zero warnings (STYLE.md, "Habits").
//
// Layers, later entries win for the files they match:
//   1. plain JS rules for the few .js/.mjs scripts (tools/, bench/, jest config);
//   2. typescript-eslint `recommendedTypeChecked` for every .ts file, plus the three rules the
//      style guide asks for by name;
//   3. @nx/enforce-module-boundaries: which project may import which, by tags in project.json;
//   4. relaxations for specs and the test harness, and for the composition root (apps/standalone).
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

const testFiles = [
  '**/*.spec.ts',
  '**/*.api-spec.ts',
  '**/*.e2e-spec.ts',
  '**/test/**/*.ts',
  'libs/testing/**/*.ts',
];

// The layering of the workspace (STYLE.md "Workspace"). Each project carries one `type:*` tag.
// A lib may only use the libs below it; apps use the libs but never each other (nx also rejects
// any import of an `application` project on its own: "Imports of apps are forbidden").
const layers = {
  contracts: ['type:contracts'],
  platform: ['type:contracts'],
  persistence: ['type:contracts', 'type:platform'],
  background: ['type:contracts', 'type:platform', 'type:persistence'],
  // Started by the composition root, the test harness and the tools; never by a service.
  embeddedPostgres: ['type:contracts', 'type:platform'],
  testing: [
    'type:contracts',
    'type:platform',
    'type:persistence',
    'type:background',
    'type:embedded-postgres',
  ],
  app: ['type:contracts', 'type:platform', 'type:persistence', 'type:background'],
};

const depConstraints = (appMayUse) => [
  { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: layers.contracts },
  { sourceTag: 'type:platform', onlyDependOnLibsWithTags: layers.platform },
  { sourceTag: 'type:persistence', onlyDependOnLibsWithTags: layers.persistence },
  { sourceTag: 'type:background', onlyDependOnLibsWithTags: layers.background },
  { sourceTag: 'type:embedded-postgres', onlyDependOnLibsWithTags: layers.embeddedPostgres },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: layers.testing },
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: appMayUse },
  // apps/standalone runs every service in one process: the one project allowed to import apps.
  { sourceTag: 'type:composition', onlyDependOnLibsWithTags: ['*'] },
  // apps/e2e drives the built services as separate processes; it is test code throughout.
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: [...layers.testing, 'type:testing'] },
  // Shared libs never reach into a service, whatever their type.
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
];

const boundaries = (appMayUse, allow = []) => [
  'error',
  { allow, depConstraints: depConstraints(appMayUse) },
];

export default defineConfig(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/coverage/**',
      '**/tmp/**',
      '.nx/**',
      '.data/**',
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },

  // 1. JavaScript: build and run scripts (ESM) and the jest config (CommonJS).
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [js.configs.recommended],
    languageOptions: {
      // The Node globals these scripts use; listed here rather than pulled from the `globals`
      // package, which is not a direct dependency.
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
      },
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        exports: 'writable',
        __dirname: 'readonly',
        __filename: 'readonly',
      },
    },
  },

  // 2. TypeScript, type-checked against the root tsconfig.json.
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        // The project service finds the root tsconfig.json for each file (apps, libs, tools,
        // bench, deploy). Its compiler options reach the rules: with experimentalDecorators
        // and emitDecoratorMetadata both on, consistent-type-imports leaves alone every file that
        // has a decorator, so the class imports Nest DI needs at run time (swc emits
        // `design:paramtypes` from them) are never turned into `import type`. It still applies to
        // every undecorated file. No parserOptions.emitDecoratorMetadata needed: it is read from
        // the program.
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        {
          // The rule's defaults, spelled out: a switch over a union (error codes, auth kinds...)
          // must name every member even when it has a `default`, so a new member is a lint error
          // instead of silently taking the default branch. A switch over plain `string` needs none.
          considerDefaultExhaustiveForUnions: false,
          allowDefaultCaseForExhaustiveSwitch: true,
          requireDefaultForNonUnion: false,
        },
      ],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        {
          prefer: 'type-imports',
          fixStyle: 'separate-type-imports',
          disallowTypeAnnotations: true,
        },
      ],
      // Errors cross the transport as the plain `TransportError` envelope (STYLE.md "Errors"): the
      // in-process bus rejects with it exactly as NATS would, so that one type may be thrown.
      '@typescript-eslint/only-throw-error': [
        'error',
        {
          allow: [
            { from: 'file', name: 'TransportError', path: 'libs/contracts/src/error-envelope.ts' },
          ],
        },
      ],
      // require-await and unbound-method stay on for source code: neither is noise here today
      // (require-await has no hit; unbound-method found a destructured `check()` method).
    },
  },

  // 3. Module boundaries. Everything under apps/ and libs/ is an nx project (project.json).
  // The rule reads nx's *cached* project graph (.nx/workspace-data) and, when there is none (a
  // fresh clone, CI), prints a line and skips itself without failing. So `npm run lint` runs
  // `nx show projects` first, which computes the graph offline and caches it.
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    plugins: { '@nx': nx },
    rules: { '@nx/enforce-module-boundaries': boundaries(layers.app) },
  },
  {
    // Only an app's tests may use the test harness. nx tags are per project, so this finer rule is
    // expressed by giving the test files of apps their own constraint list.
    files: [
      'apps/**/*.spec.ts',
      'apps/**/*.api-spec.ts',
      'apps/**/*.e2e-spec.ts',
      'apps/*/test/**/*.ts',
    ],
    rules: { '@nx/enforce-module-boundaries': boundaries([...layers.app, 'type:testing']) },
  },
  {
    // The shared libs' own specs run against a real PostgreSQL or NATS from the shared harness.
    // The harness builds on those libs, so these are cycles in the graph, but made of spec files
    // only (both ends name them: nx reports a cycle from whichever file closes it).
    files: [
      'libs/persistence/**/*.spec.ts',
      'libs/background/**/*.spec.ts',
      'libs/platform/**/*.spec.ts',
      'libs/testing/**/*.ts',
    ],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          ignoredCircularDependencies: [
            ['persistence', 'testing'],
            ['background', 'testing'],
            ['platform', 'testing'],
          ],
          depConstraints: depConstraints(layers.app).map((constraint) =>
            ['type:persistence', 'type:background', 'type:platform'].includes(constraint.sourceTag)
              ? {
                  ...constraint,
                  onlyDependOnLibsWithTags: [
                    ...constraint.onlyDependOnLibsWithTags,
                    'type:testing',
                  ],
                }
              : constraint,
          ),
        },
      ],
    },
  },
  {
    // The composition root imports each service's root module by its alias. nx forbids importing
    // an application outright, before tags are consulted, so exactly those aliases (entry point
    // only, no deep imports; `allow` entries are regular expressions) are allowed here.
    files: ['apps/standalone/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': boundaries(layers.app, ['^@switchboard/app-[a-z-]+$']),
    },
  },

  // 4. Specs and the test harness: jest's `expect.any()`, `JSON.parse` of response bodies and
  // mocks are `any` by design; checking every property access of them adds casts, not safety.
  // `expect(mock.method).toHaveBeenCalled()` passes a method unbound by design: unbound-method off.
  {
    files: testFiles,
    rules: {
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
