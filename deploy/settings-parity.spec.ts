/**
 * One topology, one behaviour: what the embedded default does in one process, every distributed
 * mode (`npm run start:distributed`, docker-compose.yml, the Kubernetes manifests) must wire with
 * settings. The rules run over the real lists: the contracts' service list, each app's env schema,
 * the environment the embedded default builds, the one start-distributed builds and the files.
 */
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { parse } from 'yaml';
import { DeployedApps } from '@switchboard/contracts';
import type { DeployedApp } from '@switchboard/contracts';
import { NATS_MAX_PAYLOAD_CONFIG, REQUIRED_MAX_PAYLOAD_BYTES } from '@switchboard/platform';
import { embeddedEnv } from '../apps/standalone/src/embedded-platform';
import { natsConfig, natsServerArgs, processEnvironments } from '../tools/distributed-env.mjs';
import { composeEnvironment, k8sEnvironment, SERVICES } from './test/deployed-settings';
import type { Yaml } from './test/deployed-settings';
import { renderKustomization } from './kustomize';

const root = join(__dirname, '..');
const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true });
const k8s = renderKustomization(join(root, 'deploy')).objects as Yaml[];
const ofKind = (kind: string): Yaml[] => k8s.filter((object) => object.kind === kind);
const configMaps = new Map<string, Record<string, string>>(
  ofKind('ConfigMap').map((cm) => [cm.metadata.name, cm.data ?? {}]),
);
const k8sContainer = (name: string): Yaml =>
  [...ofKind('Deployment'), ...ofKind('StatefulSet')]
    .find((o) => o.metadata.name === name)
    ?.spec.template.spec.containers.find((c: Yaml) => c.name === name);

const services = DeployedApps.filter((app) => app !== 'gateway');
const startDistributed = processEnvironments({
  services,
  natsUrl: 'nats://127.0.0.1:4222',
  databaseUrl: 'postgres://localhost/switchboard',
  encryptionKey: 'sbenc_parity_key_0123456789',
  adminToken: 'sbadm_parity',
  gatewayPort: 8080,
  metricsPorts: new Map(DeployedApps.map((app, i) => [app, 9464 + i])),
  metricsHost: '127.0.0.1',
  realtimeClientPort: 8090,
});

interface Mode {
  name: string;
  /** The variables the mode sets for the app (undefined: a secret or a reference). */
  env(app: DeployedApp): Map<string, string | undefined>;
  /** How `app` is reached at `port` from another process of the mode. */
  address(app: DeployedApp, port: number): string;
}

const modes: Mode[] = [
  {
    name: 'npm run start:distributed',
    env: (app) => new Map(Object.entries(startDistributed.get(app) ?? {})),
    address: (_app, port) => `127.0.0.1:${port}`,
  },
  {
    name: 'docker-compose.yml',
    env: (app) => composeEnvironment(compose.services[app]).values,
    // The compose network names each container by its service.
    address: (app, port) => `${app}:${port}`,
  },
  {
    name: 'deploy/ (Kubernetes)',
    env: (app) => k8sEnvironment(k8sContainer(app), configMaps).values,
    // The app's Service, on the Service port whose target is that container port.
    address: (app, port) => {
      const container = k8sContainer(app);
      const service = ofKind('Service').find((s) => s.metadata.name === app);
      const exposed = (service?.spec.ports ?? []).find((p: Yaml) => {
        const target = container.ports.find(
          (c: Yaml) => c.name === p.targetPort || c.containerPort === p.targetPort,
        );
        return target?.containerPort === port;
      });
      return exposed ? `${app}:${exposed.port}` : `${app}:(no Service port for ${port})`;
    },
  },
];

/** The value a mode gives `app` for `name`, else the schema's default. */
const valueOf = (mode: Mode, app: DeployedApp, name: string) =>
  mode.env(app).get(name) ?? (SERVICES[app].schema[name]?.default as string | undefined);

/** `max_payload` from a nats-server configuration file's text. */
const maxPayloadOf = (conf: string | undefined) =>
  Number(/^\s*max_payload\s*[:=]\s*(\d+)\s*$/m.exec(conf ?? '')?.[1] ?? 1024 * 1024);

describe('settings the embedded default implies, wired in every distributed mode', () => {
  it('gives each app every variable the embedded default sets and its schema declares (TRANSPORT as nats)', () => {
    const implied = Object.keys(embeddedEnv({}, { databaseUrl: 'x', encryptionKey: 'y' }));
    expect(implied).toEqual(expect.arrayContaining(['DATABASE_URL', 'TRANSPORT']));
    const missing: string[] = [];
    for (const mode of modes)
      for (const app of DeployedApps)
        for (const name of implied.filter((n) => n in SERVICES[app].schema))
          if (!mode.env(app).has(name)) missing.push(`${mode.name}: ${app} lacks ${name}`);
    expect(missing).toEqual([]);
    for (const mode of modes)
      for (const app of DeployedApps)
        expect({ mode: mode.name, app, TRANSPORT: mode.env(app).get('TRANSPORT') }).toEqual({
          mode: mode.name,
          app,
          TRANSPORT: 'nats',
        });
  });

  it('sets in every mode each variable a schema declares for distributed mode without a default', () => {
    const needed = DeployedApps.flatMap((app) =>
      Object.entries(SERVICES[app].schema as Record<string, { description?: string }>)
        .filter(
          ([name, spec]) =>
            spec.description?.startsWith('distributed mode:') &&
            SERVICES[app].schema[name].default === undefined,
        )
        .map(([name]) => ({ app, name })),
    );
    expect(needed).toContainEqual({ app: 'gateway', name: 'REALTIME_CLIENT_URL' });
    const missing = modes.flatMap((mode) =>
      needed
        .filter(({ app, name }) => !mode.env(app).get(name))
        .map(({ app, name }) => `${mode.name}: ${app} lacks ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it("points each X_URL at the process whose schema has X_PORT, on that port (realtime clients on the gateway's origin)", () => {
    // Pairs from the schemas: the gateway's REALTIME_CLIENT_URL and realtime's REALTIME_CLIENT_PORT.
    const links = DeployedApps.flatMap((from) =>
      Object.keys(SERVICES[from].schema)
        .filter((name) => name.endsWith('_URL'))
        .flatMap((url) => {
          const port = url.replace(/_URL$/, '_PORT');
          return DeployedApps.filter((to) => to !== from && port in SERVICES[to].schema).map(
            (to) => ({ from, url, to, port }),
          );
        }),
    );
    expect(links).toContainEqual({
      from: 'gateway',
      url: 'REALTIME_CLIENT_URL',
      to: 'realtime',
      port: 'REALTIME_CLIENT_PORT',
    });
    for (const mode of modes)
      for (const { from, url, to, port } of links) {
        const target = valueOf(mode, from, url);
        const expected = mode.address(to, Number(valueOf(mode, to, port)));
        expect({ mode: mode.name, [url]: target && new URL(target).host }).toEqual({
          mode: mode.name,
          [url]: expected,
        });
      }
  });
});

describe('NATS carries what the in-process bus carries (a 20 MB email in one message)', () => {
  it('npm run start:distributed starts nats-server with a configuration file setting max_payload', () => {
    const args = natsServerArgs({
      configFile: '/data/nats.conf',
      port: 4222,
      monitorPort: 8222,
      storeDir: '/data/nats',
    });
    expect(args[args.indexOf('-c') + 1]).toBe('/data/nats.conf');
    const conf = natsConfig({ NATS_MAX_PAYLOAD_CONFIG });
    expect(maxPayloadOf(conf)).toBeGreaterThanOrEqual(REQUIRED_MAX_PAYLOAD_BYTES);
  });

  it('docker-compose.yml mounts a configuration file setting max_payload and names it on the command line', () => {
    const nats = compose.services.nats;
    const command: string[] = [nats.command].flat();
    const path = command[command.indexOf('--config') + 1];
    const mounted = (nats.configs ?? []).find((c: Yaml) => c.target === path);
    expect(mounted).toBeDefined();
    const conf = compose.configs?.[mounted.source]?.content;
    expect(maxPayloadOf(conf)).toBeGreaterThanOrEqual(REQUIRED_MAX_PAYLOAD_BYTES);
  });

  it('deploy/nats.yaml mounts a ConfigMap setting max_payload and names it in the arguments', () => {
    const nats = k8sContainer('nats');
    const args: string[] = nats.args;
    const path = args[args.indexOf('--config') + 1];
    const mount = nats.volumeMounts.find((m: Yaml) => m.mountPath === posix.dirname(path));
    const statefulSet = ofKind('StatefulSet').find((s) => s.metadata.name === 'nats');
    const volume = statefulSet.spec.template.spec.volumes.find((v: Yaml) => v.name === mount?.name);
    const conf = configMaps.get(volume?.configMap?.name)?.[posix.basename(path)];
    expect(maxPayloadOf(conf)).toBeGreaterThanOrEqual(REQUIRED_MAX_PAYLOAD_BYTES);
  });
});
