/**
 * No Docker engine or cluster runs in CI, so docker-compose.yml and the Kubernetes manifests are
 * checked against the code instead: every variable they set is one the service reads, nothing a
 * service requires is missing, and probes hit the health endpoints on the port the service
 * listens on. A renamed variable or a new required one fails here rather than at deploy time.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { parse } from 'yaml';
import { DeployedApps } from '@switchboard/contracts';
import type { DeployedApp } from '@switchboard/contracts';
import { composeEnvironment, k8sEnvironment, SERVICES } from './test/deployed-settings';
import type { Provided, Yaml } from './test/deployed-settings';
import { applyJsonPatch, renderKustomization } from './kustomize';

const APPS: readonly DeployedApp[] = DeployedApps;
const HEALTH_PATHS = ['/healthz', '/readyz'];
/** Variables a distributed process needs even though their schema has a (local) default. */
const DISTRIBUTED_REQUIRED = ['TRANSPORT', 'NATS_URL', 'DATABASE_URL'];

const root = join(__dirname, '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

// ---- what a service is given, in either format ---------------------------------------------------

/** The port the service listens on: its PORT / HTTP_PORT as given, else the schema's default. */
function listenPort(app: DeployedApp, provided: Provided): number {
  const { schema, portVar } = SERVICES[app];
  return Number(provided.values.get(portVar) ?? schema[portVar].default);
}

/** The port of the process's Prometheus endpoint: its METRICS_PORT as given, else the default. */
function metricsPort(app: DeployedApp, provided: Provided): number {
  return Number(provided.values.get('METRICS_PORT') ?? SERVICES[app].schema.METRICS_PORT.default);
}

function expectEnvMatchesSchema(app: DeployedApp, provided: Provided): void {
  const { schema } = SERVICES[app];
  const names = [...provided.values.keys()];
  expect({ app, unknown: names.filter((name) => !(name in schema)) }).toEqual({ app, unknown: [] });
  const required = Object.entries(schema)
    .filter(([, spec]) => spec.required)
    .map(([name]) => name);
  const mustHave = [
    ...required,
    ...DISTRIBUTED_REQUIRED,
    ...(app === 'gateway' ? ['PLATFORM_ADMIN_TOKEN'] : []),
  ];
  expect({ app, missing: mustHave.filter((name) => !provided.values.has(name)) }).toEqual({
    app,
    missing: [],
  });
  // Every service exits at start unless it runs on NATS.
  expect({ app, TRANSPORT: provided.values.get('TRANSPORT') }).toEqual({ app, TRANSPORT: 'nats' });
}

// ---- docker-compose.yml --------------------------------------------------------------------------

describe('docker-compose.yml', () => {
  // Compose files use YAML merge keys (`<<: *anchor`).
  const compose = parse(read('docker-compose.yml'), { merge: true });
  const services: Record<string, Yaml> = compose.services;

  it('runs every service of the list, built from the root Dockerfile with its APP, and no other', () => {
    for (const app of APPS) {
      expect({ app, present: app in services }).toEqual({ app, present: true });
      expect({ app, APP: services[app].build?.args?.APP }).toEqual({ app, APP: app });
    }
    // Everything else is infrastructure or the one-shot migration step.
    expect(Object.keys(services).filter((name) => !APPS.includes(name as DeployedApp))).toEqual([
      'nats',
      'postgres',
      'migrate',
    ]);
  });

  it.each(APPS)(
    '%s: sets only variables its env schema declares, and every required one',
    (app) => {
      expectEnvMatchesSchema(app, composeEnvironment(services[app]));
    },
  );

  it.each(APPS)(
    '%s: keeps secrets out of the file (interpolated from the environment or .env)',
    (app) => {
      const { values } = composeEnvironment(services[app]);
      for (const [name, spec] of Object.entries(SERVICES[app].schema)) {
        if (spec.secret && values.has(name))
          expect({ app, name, interpolated: /\$\{/.test(values.get(name) ?? '') }).toEqual({
            app,
            name,
            interpolated: true,
          });
      }
    },
  );

  it.each(APPS)('%s: health check hits /readyz on the port the service listens on', (app) => {
    const test = services[app].healthcheck?.test;
    const command = Array.isArray(test) ? test.join(' ') : String(test ?? '');
    const url = /https?:\/\/[^/:\s'"]+:(\d+)(\/[\w/-]*)/.exec(command);
    expect({ app, url: Boolean(url) }).toEqual({ app, url: true });
    const [, port, path] = url as RegExpExecArray;
    expect({ app, path }).toEqual({ app, path: '/readyz' });
    expect({ app, port: Number(port) }).toEqual({
      app,
      port: listenPort(app, composeEnvironment(services[app])),
    });
  });

  it.each(APPS)('%s: starts after NATS is healthy and the migrations succeeded', (app) => {
    expect({ app, depends_on: services[app].depends_on }).toMatchObject({
      app,
      depends_on: {
        nats: { condition: 'service_healthy' },
        migrate: { condition: 'service_completed_successfully' },
      },
    });
  });

  it('publishes the gateway port', () => {
    const ports: string[] = (services.gateway.ports ?? []).map(String);
    const port = listenPort('gateway', composeEnvironment(services.gateway));
    expect(ports.some((mapping) => mapping.endsWith(`:${port}`))).toBe(true);
  });

  it("routes realtime clients through the gateway's origin to realtime's client port, which is not published", () => {
    const gateway = composeEnvironment(services.gateway);
    const realtime = composeEnvironment(services.realtime);
    const clientPort = realtime.values.get('REALTIME_CLIENT_PORT') ?? '8090';
    expect(gateway.values.get('REALTIME_CLIENT_URL')).toBe(`http://realtime:${clientPort}`);
    expect((services.realtime.expose ?? []).map(String)).toContain(clientPort);
    expect(services.realtime.ports ?? []).toEqual([]);
  });

  it.each(APPS)(
    '%s: serves metrics on its own port to the compose network, labelled for scraping, never published',
    (app) => {
      const provided = composeEnvironment(services[app]);
      const port = metricsPort(app, provided);
      expect({ app, port: port === listenPort(app, provided) }).toEqual({ app, port: false });
      expect({ app, host: provided.values.get('METRICS_HOST') }).toEqual({ app, host: '0.0.0.0' });
      expect({ app, expose: (services[app].expose ?? []).map(String) }).toEqual({
        app,
        expose: expect.arrayContaining([String(port)]),
      });
      expect({ app, labels: services[app].labels }).toMatchObject({
        app,
        labels: {
          'prometheus.io/scrape': 'true',
          'prometheus.io/port': String(port),
          'prometheus.io/path': '/metrics',
        },
      });
      const published = (services[app].ports ?? []).map(String);
      expect({ app, published: published.filter((m: string) => m.endsWith(`:${port}`)) }).toEqual({
        app,
        published: [],
      });
    },
  );

  it('has a one-shot migrate step after PostgreSQL is healthy, with what every service needs to migrate', () => {
    const migrate = services.migrate;
    expect(migrate).toBeDefined();
    expect([migrate.command].flat().join(' ')).toContain('tools/migrate.mjs');
    expect(migrate.depends_on).toMatchObject({ postgres: { condition: 'service_healthy' } });
    const { values } = composeEnvironment(migrate);
    const known = new Set(APPS.flatMap((app) => Object.keys(SERVICES[app].schema)));
    expect([...values.keys()].filter((name) => !known.has(name))).toEqual([]);
    for (const app of APPS) {
      const required = Object.entries(SERVICES[app].schema)
        .filter(([, spec]) => spec.required)
        .map(([name]) => name);
      expect({
        app,
        missing: [...required, 'DATABASE_URL'].filter((name) => !values.has(name)),
      }).toEqual({ app, missing: [] });
    }
  });

  it('runs NATS with JetStream and PostgreSQL, both with health checks', () => {
    expect([services.nats.command].flat().join(' ')).toMatch(/--jetstream|-js\b/);
    expect([services.nats.healthcheck?.test].flat().join(' ')).toContain(':8222/healthz');
    expect([services.postgres.healthcheck?.test].flat().join(' ')).toContain('pg_isready');
  });
});

// ---- deploy/*.yaml -------------------------------------------------------------------------------

describe('Kubernetes manifests (deploy/, rendered as `kubectl apply -k deploy/` would)', () => {
  const dir = join(root, 'deploy');
  const { objects, files: rendered } = renderKustomization(dir);
  const ofKind = (kind: string): Yaml[] => objects.filter((object) => object.kind === kind);
  const find = (kind: string, name: string): Yaml =>
    ofKind(kind).find((object) => object.metadata?.name === name);
  const configMaps = new Map<string, Record<string, string>>(
    ofKind('ConfigMap').map((cm) => [cm.metadata.name, cm.data ?? {}]),
  );
  const containerOf = (app: string) =>
    find('Deployment', app)?.spec.template.spec.containers.find((c: Yaml) => c.name === app);

  it('renders every YAML file under deploy/: no manifest or patch is left out', () => {
    const yamlFiles = (folder: string): string[] =>
      readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? yamlFiles(join(folder, entry.name))
          : /\.ya?ml$/.test(entry.name) && !entry.name.includes('.example.')
            ? [join(folder, entry.name)]
            : [],
      );
    expect(yamlFiles(dir).filter((file) => !rendered.includes(file))).toEqual([]);
  });

  it('has one overlay of the shared base per service of the list, and no other', () => {
    expect(readdirSync(join(dir, 'apps')).sort()).toEqual([...APPS].sort());
    for (const app of APPS) {
      const overlay = parse(readFileSync(join(dir, 'apps', app, 'kustomization.yaml'), 'utf8'));
      expect({ app, resources: overlay.resources }).toEqual({
        app,
        resources: expect.arrayContaining(['../../base']),
      });
    }
    // Every Deployment is one of the list's, or NATS (a StatefulSet).
    expect(
      ofKind('Deployment')
        .map((d) => d.metadata.name)
        .sort(),
    ).toEqual([...APPS].sort());
  });

  it('places every object in the namespace and points every Switchboard container at the configured image', () => {
    const kustomization = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8'));
    for (const object of objects.filter((o) => o.kind !== 'Namespace'))
      expect({
        object: `${object.kind}/${object.metadata.name}`,
        ns: object.metadata.namespace,
      }).toEqual({
        object: `${object.kind}/${object.metadata.name}`,
        ns: kustomization.namespace,
      });
    const image = kustomization.images.find((i: Yaml) => i.name === 'switchboard');
    for (const app of APPS)
      expect({ app, image: containerOf(app)?.image }).toEqual({
        app,
        image: `${image.newName}:${image.newTag}`,
      });
  });

  it('selects the pods of each Deployment by its own name only (selectors are immutable)', () => {
    for (const app of APPS) {
      const deployment = find('Deployment', app);
      const selector = { 'app.kubernetes.io/name': app };
      expect({ app, selector: deployment.spec.selector.matchLabels }).toEqual({ app, selector });
      expect({ app, pods: deployment.spec.template.metadata.labels }).toEqual({
        app,
        pods: selector,
      });
      expect({ app, service: find('Service', app).spec.selector }).toEqual({
        app,
        service: selector,
      });
      expect({ app, pdb: find('PodDisruptionBudget', app)?.spec.selector.matchLabels }).toEqual({
        app,
        pdb: selector,
      });
    }
  });

  it('has a Deployment and a Service for every service, running its own main.js', () => {
    for (const app of APPS) {
      expect({
        app,
        deployment: Boolean(find('Deployment', app)),
        service: Boolean(find('Service', app)),
      }).toEqual({ app, deployment: true, service: true });
      expect({
        app,
        command: [containerOf(app)?.command, containerOf(app)?.args]
          .flat()
          .filter(Boolean)
          .join(' '),
      }).toEqual({
        app,
        command: `node dist/apps/${app}/src/main.js`,
      });
    }
  });

  it.each(APPS)(
    '%s: sets only variables its env schema declares, and every required one',
    (app) => {
      expectEnvMatchesSchema(app, k8sEnvironment(containerOf(app), configMaps));
    },
  );

  it.each(APPS)('%s: reads secrets from the Secret switchboard-secrets', (app) => {
    const container = containerOf(app);
    const { sources } = k8sEnvironment(container, configMaps);
    for (const [name, spec] of Object.entries(SERVICES[app].schema)) {
      if (!spec.secret || !sources.has(name)) continue;
      const entry = (container.env ?? []).find((e: Yaml) => e.name === name);
      expect({ app, name, secret: entry?.valueFrom?.secretKeyRef?.name }).toEqual({
        app,
        name,
        secret: 'switchboard-secrets',
      });
    }
  });

  it.each(APPS)(
    '%s: probes /readyz (readiness) and /healthz (liveness) on the port the service listens on',
    (app) => {
      const container = containerOf(app);
      const port = listenPort(app, k8sEnvironment(container, configMaps));
      const portOf = (ref: string | number) =>
        typeof ref === 'number'
          ? ref
          : container.ports?.find((p: Yaml) => p.name === ref)?.containerPort;
      expect({
        app,
        containerPort: container.ports?.some((p: Yaml) => p.containerPort === port),
      }).toEqual({ app, containerPort: true });
      for (const kind of ['readinessProbe', 'livenessProbe', 'startupProbe']) {
        const probe = container[kind];
        if (!probe && kind === 'startupProbe') continue;
        expect({ app, kind, path: HEALTH_PATHS.includes(probe?.httpGet?.path) }).toEqual({
          app,
          kind,
          path: true,
        });
        expect({ app, kind, port: portOf(probe.httpGet.port) }).toEqual({ app, kind, port });
      }
      // Readiness follows the dependencies; liveness must not, or a database outage restarts every pod.
      expect({
        app,
        readiness: container.readinessProbe.httpGet.path,
        liveness: container.livenessProbe.httpGet.path,
      }).toEqual({
        app,
        readiness: '/readyz',
        liveness: '/healthz',
      });
    },
  );

  it.each(APPS)('%s: Service targets the port the service listens on', (app) => {
    const container = containerOf(app);
    const port = listenPort(app, k8sEnvironment(container, configMaps));
    const targets = find('Service', app).spec.ports.map((p: Yaml) =>
      typeof p.targetPort === 'number'
        ? p.targetPort
        : container.ports.find((c: Yaml) => c.name === p.targetPort)?.containerPort,
    );
    expect({ app, targets: targets.includes(port) }).toEqual({ app, targets: true });
  });

  it.each(APPS)(
    '%s: serves metrics on a container port of its own, on all interfaces, annotated for Prometheus and behind no Service',
    (app) => {
      const container = containerOf(app);
      const provided = k8sEnvironment(container, configMaps);
      const port = metricsPort(app, provided);
      expect({ app, port: port === listenPort(app, provided) }).toEqual({ app, port: false });
      expect({ app, host: provided.values.get('METRICS_HOST') }).toEqual({ app, host: '0.0.0.0' });
      expect({
        app,
        containerPort: container.ports.find((p: Yaml) => p.name === 'metrics')?.containerPort,
      }).toEqual({ app, containerPort: port });
      expect({
        app,
        annotations: find('Deployment', app).spec.template.metadata.annotations,
      }).toMatchObject({
        app,
        annotations: {
          'prometheus.io/scrape': 'true',
          'prometheus.io/port': String(port),
          'prometheus.io/path': '/metrics',
        },
      });
      const targets = find('Service', app).spec.ports.map((p: Yaml) => p.targetPort);
      expect({ app, exposed: targets.includes('metrics') || targets.includes(port) }).toEqual({
        app,
        exposed: false,
      });
    },
  );

  it.each(APPS)('%s: sets resource requests and limits', (app) => {
    const { resources } = containerOf(app);
    expect({ app, resources }).toMatchObject({
      app,
      resources: {
        requests: { cpu: expect.anything(), memory: expect.anything() },
        limits: { cpu: expect.anything(), memory: expect.anything() },
      },
    });
  });

  it('autoscales the gateway and realtime', () => {
    for (const app of ['gateway', 'realtime']) {
      const hpa = ofKind('HorizontalPodAutoscaler').find(
        (h) => h.spec.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === app,
      );
      expect({ app, hpa: Boolean(hpa) }).toEqual({ app, hpa: true });
      // A replica count in the Deployment would fight the autoscaler on every apply.
      expect({ app, replicas: find('Deployment', app).spec.replicas }).toEqual({
        app,
        replicas: undefined,
      });
    }
  });

  it('routes /app and /realtime/socket.io to realtime, everything else to the gateway', () => {
    const routes = new Map<string, Yaml>();
    for (const ingress of ofKind('Ingress')) {
      for (const rule of ingress.spec.rules ?? [])
        for (const path of rule.http.paths) routes.set(path.path, path.backend.service);
    }
    const realtimeWs = find('Service', 'realtime').spec.ports.find((p: Yaml) => p.name === 'ws');
    expect(realtimeWs).toBeDefined();
    const wsContainerPort = containerOf('realtime').ports.find(
      (p: Yaml) => p.name === realtimeWs.targetPort || p.containerPort === realtimeWs.targetPort,
    );
    expect(wsContainerPort?.containerPort).toBe(8090);
    for (const path of ['/app', '/realtime/socket.io']) {
      expect({ path, backend: routes.get(path) }).toEqual({
        path,
        backend: { name: 'realtime', port: { name: 'ws' } },
      });
    }
    expect(routes.get('/')).toEqual({ name: 'gateway', port: { name: 'http' } });
  });

  it('runs the migrations in a Job with what every service needs to migrate', () => {
    const job = ofKind('Job').find((j) =>
      j.spec.template.spec.containers.some((c: Yaml) =>
        [c.command, c.args].flat().join(' ').includes('tools/migrate.mjs'),
      ),
    );
    expect(job).toBeDefined();
    const container = job.spec.template.spec.containers[0];
    const { values } = k8sEnvironment(container, configMaps);
    const known = new Set(APPS.flatMap((app) => Object.keys(SERVICES[app].schema)));
    expect([...values.keys()].filter((name) => !known.has(name))).toEqual([]);
    for (const app of APPS) {
      const required = Object.entries(SERVICES[app].schema)
        .filter(([, spec]) => spec.required)
        .map(([name]) => name);
      expect({
        app,
        missing: [...required, 'DATABASE_URL'].filter((name) => !values.has(name)),
      }).toEqual({ app, missing: [] });
    }
  });

  it('runs NATS with JetStream behind the Service that NATS_URL names', () => {
    const nats = [...ofKind('StatefulSet'), ...ofKind('Deployment')].find(
      (o) => o.metadata.name === 'nats',
    );
    expect(nats).toBeDefined();
    const container = nats.spec.template.spec.containers[0];
    expect([container.command, container.args].flat().join(' ')).toMatch(/--jetstream|-js\b/);
    const host = new URL(configMaps.get('switchboard-config')?.NATS_URL ?? '').hostname;
    expect(find('Service', host)).toBeDefined();
  });
});

// ---- deploy/kustomize.ts ---------------------------------------------------------------------------

describe('the kustomize subset renderer (deploy/kustomize.ts)', () => {
  const doc = { spec: { list: [{ name: 'a' }, { name: 'b' }], 'a/b': { '~x': 1 } } };

  it('adds, appends, replaces, removes and tests as RFC 6902 says, on a copy', () => {
    const out = applyJsonPatch(doc, [
      { op: 'add', path: '/spec/list/-', value: { name: 'c' } },
      { op: 'add', path: '/spec/list/0', value: { name: 'z' } },
      { op: 'test', path: '/spec/list/1/name', value: 'a' },
      { op: 'replace', path: '/spec/list/1', value: { name: 'A' } },
      { op: 'remove', path: '/spec/list/2' },
      { op: 'replace', path: '/spec/a~1b/~0x', value: 2 },
      { op: 'add', path: '/spec/new', value: true },
    ]);
    expect(out).toEqual({
      spec: { list: [{ name: 'z' }, { name: 'A' }, { name: 'c' }], 'a/b': { '~x': 2 }, new: true },
    });
    expect(doc.spec.list).toHaveLength(2);
  });

  it('fails on a failed test, a missing path, or a replace of nothing', () => {
    expect(() =>
      applyJsonPatch(doc, [{ op: 'test', path: '/spec/list/0/name', value: 'b' }]),
    ).toThrow(/expected "b"/);
    expect(() => applyJsonPatch(doc, [{ op: 'add', path: '/nope/x', value: 1 }])).toThrow(
      /"nope" does not exist/,
    );
    expect(() => applyJsonPatch(doc, [{ op: 'replace', path: '/spec/other', value: 1 }])).toThrow(
      /nothing to replace/,
    );
    expect(() => applyJsonPatch(doc, [{ op: 'move', path: '/spec/list' }])).toThrow(
      /not supported/,
    );
  });
});

// ---- .env.example --------------------------------------------------------------------------------

describe('.env.example', () => {
  it('documents every variable of every service', () => {
    const text = read('.env.example');
    const missing = APPS.flatMap((app) =>
      Object.keys(SERVICES[app].schema)
        .filter((name) => !new RegExp(`^#?\\s*${name}=`, 'm').test(text))
        .map((name) => `${app}: ${name}`),
    );
    expect(missing).toEqual([]);
  });
});

// ---- Dockerfile ----------------------------------------------------------------------------------

describe('Dockerfile', () => {
  /** Runtime code: apps and libs, without specs, test folders and the test-only projects. */
  function* runtimeSources(dir: string): Generator<string> {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!['test', 'node_modules'].includes(entry.name)) yield* runtimeSources(path);
      } else if (
        entry.name.endsWith('.ts') &&
        !/\.(spec|api-spec|e2e-spec|d)\.ts$/.test(entry.name)
      ) {
        yield path;
      }
    }
  }

  it('keeps every package the services load: the image prunes devDependencies', () => {
    // `npm prune --omit=dev` removes exactly the lockfile entries marked dev-only.
    const lock = JSON.parse(read('package-lock.json')).packages as Record<
      string,
      { dev?: boolean }
    >;
    const builtins = new Set(builtinModules);
    const devOnly: string[] = [];
    for (const top of ['apps', 'libs']) {
      for (const project of readdirSync(join(root, top))) {
        if (['e2e', 'testing'].includes(project)) continue; // test-only, never run in the image
        for (const file of runtimeSources(join(root, top, project, 'src'))) {
          const text = readFileSync(file, 'utf8');
          // Value imports only: `import type` is erased by the compiler.
          const specifiers = [
            ...text.matchAll(
              /^\s*(?:import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?'([^']+)'|\b(?:import|require)\('([^']+)'\)/gm,
            ),
          ]
            .filter((m) => !m[1])
            .map((m) => m[2] ?? m[3]);
          for (const specifier of specifiers) {
            if (/^(\.|node:|#|@switchboard\/)/.test(specifier) || builtins.has(specifier)) continue;
            const name = specifier
              .split('/')
              .slice(0, specifier.startsWith('@') ? 2 : 1)
              .join('/');
            const entry = lock[`node_modules/${name}`];
            if (!entry || entry.dev)
              devOnly.push(
                `${file.slice(root.length + 1)}: ${name}${entry ? ' (devDependency)' : ' (not in package-lock.json)'}`,
              );
          }
        }
      }
    }
    expect(devOnly).toEqual([]);
  });
});
