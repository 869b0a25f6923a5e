// What `npm run start:distributed` gives each process and nats-server, apart from the script so
// that deploy/settings-parity.spec.ts can compare it with docker-compose.yml, deploy/ and the
// embedded default. Every process also inherits the script's own environment.

/** The processes whose env schema requires ENCRYPTION_KEY (the spec checks this list). */
export const ENCRYPTED = [
  'gateway',
  'realtime',
  'email',
  'sms-whatsapp',
  'verify-lookup-preferences',
  'webhooks',
  'workspace-objects',
];
/** One health port per service in list order: docs 8181, email 8182... */
export const FIRST_SERVICE_PORT = 8181;
/** Where realtime clients connect on a realtime process unless REALTIME_CLIENT_PORT says otherwise. */
export const DEFAULT_REALTIME_CLIENT_PORT = 8090;

/**
 * Process name -> the variables start-distributed sets for it (services in `services` order, then
 * the gateway), on top of its own environment.
 */
export function processEnvironments({
  services,
  natsUrl,
  databaseUrl,
  encryptionKey,
  adminToken,
  gatewayPort,
  metricsPorts,
  metricsHost,
  realtimeClientPort,
  realtimeClientUrl,
}) {
  const base = { TRANSPORT: 'nats', NATS_URL: natsUrl, DATABASE_URL: databaseUrl };
  const sealed = (app) => (ENCRYPTED.includes(app) ? { ENCRYPTION_KEY: encryptionKey } : {});
  const envs = new Map();
  services.forEach((app, i) => {
    envs.set(app, {
      ...base,
      ...sealed(app),
      HTTP_PORT: String(FIRST_SERVICE_PORT + i),
      METRICS_PORT: String(metricsPorts.get(app)),
      METRICS_HOST: metricsHost,
      // Realtime clients connect to the gateway's origin, which forwards them to this port (as
      // the embedded default serves them on the API port itself).
      ...(app === 'realtime' ? { REALTIME_CLIENT_PORT: String(realtimeClientPort) } : {}),
      // Links in mail (open pixels, tracked links, unsubscribe) point at the gateway.
      ...(app === 'email' ? { PUBLIC_URL: `http://127.0.0.1:${gatewayPort}` } : {}),
    });
  });
  envs.set('gateway', {
    ...base,
    ...sealed('gateway'),
    PORT: String(gatewayPort),
    METRICS_PORT: String(metricsPorts.get('gateway')),
    METRICS_HOST: metricsHost,
    PLATFORM_ADMIN_TOKEN: adminToken,
    REALTIME_CLIENT_URL: realtimeClientUrl ?? `http://127.0.0.1:${realtimeClientPort}`,
  });
  return envs;
}

/**
 * nats-server's arguments. A 20 MB email crosses NATS in one message and nats-server accepts 1 MB
 * unless told otherwise; max_payload has no command-line flag, so it is in `configFile`, whose
 * content is `natsConfig(platform)`.
 */
export function natsServerArgs({ configFile, port, monitorPort, storeDir }) {
  return [
    '-c',
    configFile,
    '-a',
    '127.0.0.1',
    '-p',
    String(port),
    '-m',
    String(monitorPort),
    '-js',
    '-sd',
    storeDir,
  ];
}

/** The configuration file's content, from libs/platform (`NATS_MAX_PAYLOAD_CONFIG`). */
export function natsConfig(platform) {
  return platform.NATS_MAX_PAYLOAD_CONFIG;
}
