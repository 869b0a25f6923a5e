// Types of tools/distributed-env.mjs for the TypeScript specs that import it.
export declare const ENCRYPTED: readonly string[];
export declare const FIRST_SERVICE_PORT: number;
export declare const DEFAULT_REALTIME_CLIENT_PORT: number;
export declare function processEnvironments(settings: {
  services: readonly string[];
  natsUrl: string;
  databaseUrl: string;
  encryptionKey: string;
  adminToken: string;
  gatewayPort: number;
  metricsPorts: Map<string, number>;
  metricsHost: string;
  realtimeClientPort: number;
  realtimeClientUrl?: string;
}): Map<string, Record<string, string>>;
export declare function natsServerArgs(settings: {
  configFile: string;
  port: number;
  monitorPort: number;
  storeDir: string;
}): string[];
export declare function natsConfig(platform: { NATS_MAX_PAYLOAD_CONFIG: string }): string;
