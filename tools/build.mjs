#!/usr/bin/env node
// Compiles apps/ and libs/ to dist/ with swc (type-checking is `npm run typecheck`). Path aliases
// from tsconfig.base.json are rewritten to relative requires, so `node dist/...` runs as is.
import { transformFile } from '@swc/core';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const finalDir = join(root, 'dist');
// Built aside and swapped in, so a process starting from dist/ never sees a half-written tree.
const outDir = join(root, `dist.building-${process.pid}`);
const tsconfig = JSON.parse(await readFile(join(root, 'tsconfig.base.json'), 'utf8'));

async function* sources(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!['node_modules', 'test'].includes(entry.name)) yield* sources(path);
    } else if (
      entry.name.endsWith('.ts') &&
      !entry.name.endsWith('.spec.ts') &&
      !entry.name.endsWith('.d.ts')
    ) {
      yield path;
    }
  }
}

const started = Date.now();
await rm(outDir, { recursive: true, force: true });
const jobs = [];
for (const top of ['apps', 'libs']) {
  for await (const file of sources(join(root, top))) {
    jobs.push(
      transformFile(file, {
        sourceMaps: true,
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
          baseUrl: root,
          paths: tsconfig.compilerOptions.paths,
        },
        module: { type: 'commonjs' },
      }).then(async (output) => {
        const target = join(outDir, relative(root, file)).replace(/\.ts$/, '.js');
        await mkdir(dirname(target), { recursive: true });
        await writeFile(
          target,
          `${output.code}\n//# sourceMappingURL=${target.split('/').pop()}.map\n`,
        );
        await writeFile(`${target}.map`, output.map ?? '');
      }),
    );
  }
}
await Promise.all(jobs);
const retired = join(root, `dist.retired-${process.pid}`);
await rename(finalDir, retired).catch(() => undefined);
await rename(outDir, finalDir);
await rm(retired, { recursive: true, force: true });
console.log(`built ${jobs.length} files into dist/ in ${Date.now() - started} ms`);
