/**
 * The one list of Switchboard's services. Everything that enumerates them derives from it: the
 * transport and schema names below, the embedded platform (apps/standalone/src/services.ts), the
 * migrations and `start:distributed` (tools/*.mjs read the compiled copy in dist/), the e2e
 * topology, and the checks on docker-compose.yml and deploy/ (deploy/deploy.spec.ts).
 * services.spec.ts fails when an app folder under apps/ and this list disagree.
 *
 * Adding a service: its folder under apps/ (`src/main.ts`, `src/index.ts`, tag `type:app`), its
 * entry here, then what the tests name: apps/standalone/src/services.ts, deploy/, docker-compose.yml.
 */

/**
 * The product services, by app folder, in start order (the embedded default stops them in the
 * reverse order); each answers on the transport. `webhooks` comes first: in the embedded default
 * it consumes every other service's events from the in-process bus, which keeps nothing, so it
 * must subscribe before any outbox relay publishes and unsubscribe after every relay stopped.
 */
export const ProductServiceApps = [
  'webhooks',
  'docs',
  'email',
  'realtime',
  'sms-whatsapp',
  'verify-lookup-preferences',
  'workspace-objects',
  'conversations-connectors',
] as const;
export type ProductServiceApp = (typeof ProductServiceApps)[number];

/** Every app that runs as a process of its own in distributed mode: the gateway, then the services. */
export const DeployedApps = ['gateway', ...ProductServiceApps] as const;
export type DeployedApp = (typeof DeployedApps)[number];

/** `sms-whatsapp` -> `sms_whatsapp`: transport subjects and schemas cannot contain `-`. */
type Underscored<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}_${Underscored<Tail>}`
  : S;

/** The services that answer on the transport; each owns one Postgres schema of the same name. */
export type ServiceName = Underscored<ProductServiceApp>;

/** A product service's transport and schema name, from its app folder. */
export function serviceNameOf<A extends ProductServiceApp>(app: A): Underscored<A> {
  return app.replace(/-/g, '_') as Underscored<A>;
}

export const ServiceNames: readonly ServiceName[] = ProductServiceApps.map(serviceNameOf);
