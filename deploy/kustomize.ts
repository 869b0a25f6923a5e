/**
 * A small renderer for the subset of kustomize that deploy/ uses, so deploy.spec.ts checks the
 * manifests as `kubectl apply -k deploy/` would create them without kubectl in CI. It implements:
 * `resources` (files, and folders with a kustomization.yaml), `patches` as RFC 6902 JSON patches
 * (inline or from a file; targets by kind and/or name), `labels` (metadata, and with
 * `includeSelectors` the selectors and pod templates), `namespace` and `images`, applied in
 * kustomize's order: patches, namespace, labels, images. Anything else in a kustomization.yaml
 * (strategic-merge patches, components, generators...) throws: extend this file before using it.
 * Checked against kustomize 5.5 (`kubectl kustomize deploy/`): same objects, same fields.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

/** A parsed Kubernetes object: JSON-like data. */
export type Manifest = Record<string, unknown> & {
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
};

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  resources?: string[];
  patches?: Array<{ path?: string; patch?: string; target?: { kind?: string; name?: string } }>;
  labels?: Array<{
    pairs: Record<string, string>;
    includeSelectors?: boolean;
    includeTemplates?: boolean;
  }>;
  namespace?: string;
  images?: Array<{ name: string; newName?: string; newTag?: string }>;
}

interface PatchOperation {
  op: string;
  path: string;
  value?: unknown;
}

const SUPPORTED = new Set([
  'apiVersion',
  'kind',
  'resources',
  'patches',
  'labels',
  'namespace',
  'images',
]);

export interface Rendered {
  objects: Manifest[];
  /** Every file the render read (kustomization files, manifests, patch files), absolute. */
  files: string[];
}

/** Renders the kustomization in `dir` (a folder holding kustomization.yaml). */
export function renderKustomization(dir: string): Rendered {
  const files: string[] = [];
  const objects = build(dir, files);
  return { objects, files };
}

function build(dir: string, files: string[]): Manifest[] {
  const file = join(dir, 'kustomization.yaml');
  files.push(file);
  const where = relative(process.cwd(), file);
  const kustomization = parse(readFileSync(file, 'utf8')) as Kustomization;
  const unsupported = Object.keys(kustomization).filter((key) => !SUPPORTED.has(key));
  if (unsupported.length)
    throw new Error(`${where}: ${unsupported.join(', ')} not supported by deploy/kustomize.ts`);

  let objects: Manifest[] = [];
  for (const resource of kustomization.resources ?? []) {
    const path = join(dir, resource);
    if (statSync(path).isDirectory()) objects.push(...build(path, files));
    else objects.push(...readManifests(path, files));
  }
  const names = new Set<string>();
  for (const object of objects) {
    const key = `${object.kind}/${object.metadata.name}`;
    if (names.has(key)) throw new Error(`${where}: ${key} is defined twice`);
    names.add(key);
  }

  for (const entry of kustomization.patches ?? []) {
    const source =
      entry.patch ?? (entry.path ? readPatchFile(join(dir, entry.path), files) : undefined);
    if (source === undefined) throw new Error(`${where}: a patch needs \`patch\` or \`path\``);
    const operations = parse(source) as unknown;
    if (!Array.isArray(operations))
      throw new Error(`${where}: only JSON 6902 patches (a list of operations) are supported`);
    const target = entry.target ?? {};
    const matched = objects.filter(
      (o) =>
        (!target.kind || o.kind === target.kind) &&
        (!target.name || o.metadata.name === target.name),
    );
    if (matched.length === 0) throw new Error(`${where}: a patch matches no resource`);
    const patched = new Set(matched);
    objects = objects.map((o) =>
      patched.has(o) ? applyJsonPatch(o, operations as PatchOperation[], where) : o,
    );
  }

  if (kustomization.namespace) {
    for (const object of objects)
      if (object.kind !== 'Namespace') object.metadata.namespace = kustomization.namespace;
  }

  for (const { pairs, includeSelectors, includeTemplates } of kustomization.labels ?? []) {
    for (const object of objects) {
      object.metadata.labels = { ...object.metadata.labels, ...pairs };
      const spec = object.spec as Record<string, Record<string, unknown>> | undefined;
      if (!spec) continue;
      if (includeSelectors) {
        if (object.kind === 'Service') spec.selector = { ...spec.selector, ...pairs };
        if (['Deployment', 'StatefulSet', 'PodDisruptionBudget'].includes(object.kind))
          spec.selector = {
            ...spec.selector,
            matchLabels: { ...(spec.selector?.matchLabels as object), ...pairs },
          };
      }
      if ((includeSelectors || includeTemplates) && isWorkload(object)) {
        const template = (spec.template ??= {}) as { metadata?: { labels?: object } };
        template.metadata = {
          ...template.metadata,
          labels: { ...template.metadata?.labels, ...pairs },
        };
      }
    }
  }

  for (const image of kustomization.images ?? []) {
    for (const container of objects.flatMap(podContainers)) {
      const [name, tag] = splitImage(String(container.image));
      if (name !== image.name) continue;
      container.image = `${image.newName ?? name}${
        (image.newTag ?? tag) ? `:${image.newTag ?? tag}` : ''
      }`;
    }
  }
  return objects;
}

function readManifests(path: string, files: string[]): Manifest[] {
  files.push(path);
  return parseAllDocuments(readFileSync(path, 'utf8'))
    .map((doc) => {
      if (doc.errors.length) throw new Error(`${path}: ${doc.errors[0].message}`);
      return doc.toJS() as Manifest | null;
    })
    .filter((object): object is Manifest => object !== null);
}

function readPatchFile(path: string, files: string[]): string {
  if (!existsSync(path)) throw new Error(`${path}: patch file missing`);
  files.push(path);
  return readFileSync(path, 'utf8');
}

function isWorkload(object: Manifest): boolean {
  return ['Deployment', 'StatefulSet', 'DaemonSet', 'Job'].includes(object.kind);
}

function podContainers(object: Manifest): Array<Record<string, unknown>> {
  if (!isWorkload(object)) return [];
  const pod = (object.spec as { template?: { spec?: Record<string, unknown> } }).template?.spec;
  return [
    ...((pod?.containers as Array<Record<string, unknown>>) ?? []),
    ...((pod?.initContainers as Array<Record<string, unknown>>) ?? []),
  ];
}

function splitImage(image: string): [string, string | undefined] {
  const at = image.lastIndexOf(':');
  return at > image.lastIndexOf('/')
    ? [image.slice(0, at), image.slice(at + 1)]
    : [image, undefined];
}

// ---- RFC 6902 --------------------------------------------------------------------------------

/** Applies `add`, `remove`, `replace` and `test` to a copy of `document`. */
export function applyJsonPatch<T>(document: T, operations: PatchOperation[], where = 'patch'): T {
  const root = structuredClone(document) as unknown;
  for (const operation of operations) {
    const fail = (problem: string): never => {
      throw new Error(`${where}: ${operation.op} ${operation.path}: ${problem}`);
    };
    const tokens = operation.path
      .split('/')
      .slice(1)
      .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (!operation.path.startsWith('/') || tokens.length === 0) fail('path must start with /');
    const last = tokens.pop() as string;
    let parent: unknown = root;
    for (const token of tokens) {
      parent = childOf(parent, token);
      if (parent === undefined) fail(`"${token}" does not exist`);
    }
    if (typeof parent !== 'object' || parent === null) fail('parent is not an object or list');
    const container = parent as Record<string, unknown> | unknown[];
    const exists = Array.isArray(container)
      ? last !== '-' && Number(last) < container.length
      : Object.prototype.hasOwnProperty.call(container, last);
    const value = structuredClone(operation.value);
    switch (operation.op) {
      case 'add':
        if (Array.isArray(container)) {
          const index = last === '-' ? container.length : Number(last);
          if (!Number.isInteger(index) || index > container.length) fail('index out of range');
          container.splice(index, 0, value);
        } else container[last] = value;
        break;
      case 'replace':
        if (!exists) fail('nothing to replace');
        if (Array.isArray(container)) container[Number(last)] = value;
        else container[last] = value;
        break;
      case 'remove':
        if (!exists) fail('nothing to remove');
        if (Array.isArray(container)) container.splice(Number(last), 1);
        else delete container[last];
        break;
      case 'test':
        if (!exists || JSON.stringify(childOf(container, last)) !== JSON.stringify(value))
          fail(`expected ${JSON.stringify(value)}`);
        break;
      default:
        fail('operation not supported by deploy/kustomize.ts');
    }
  }
  return root as T;
}

function childOf(node: unknown, token: string): unknown {
  if (Array.isArray(node)) return /^\d+$/.test(token) ? node[Number(token)] : undefined;
  if (typeof node === 'object' && node !== null) return (node as Record<string, unknown>)[token];
  return undefined;
}
