/**
 * What each deployed process is given, read from docker-compose.yml or the rendered Kubernetes
 * manifests, and the env schema of each app of the service list: shared by deploy.spec.ts and
 * settings-parity.spec.ts.
 */
import type { DeployedApp } from '@switchboard/contracts';
import { gatewayEnv } from '@switchboard/app-gateway';
import { docsEnv } from '@switchboard/app-docs';
import { emailEnv } from '@switchboard/app-email';
import { realtimeEnv } from '@switchboard/app-realtime';
import { smsWhatsappEnv } from '@switchboard/app-sms-whatsapp';
import { verifyLookupPreferencesEnv } from '@switchboard/app-verify-lookup-preferences';
import { workspaceObjectsEnv } from '@switchboard/app-workspace-objects';
import { conversationsConnectorsEnv } from '@switchboard/app-conversations-connectors';
import { webhooksEnv } from '@switchboard/app-webhooks';

export type Schema = Record<string, { required: boolean; default?: unknown; secret?: boolean }>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Yaml = any;

/**
 * App folder (= compose service = Deployment name) -> its env schema and the port it listens on.
 * Keyed by the contracts' service list: a service added there and not here does not compile.
 */
export const SERVICES: Record<DeployedApp, { schema: Schema; portVar: 'PORT' | 'HTTP_PORT' }> = {
  gateway: { schema: gatewayEnv, portVar: 'PORT' },
  docs: { schema: docsEnv, portVar: 'HTTP_PORT' },
  email: { schema: emailEnv, portVar: 'HTTP_PORT' },
  realtime: { schema: realtimeEnv, portVar: 'HTTP_PORT' },
  'sms-whatsapp': { schema: smsWhatsappEnv, portVar: 'HTTP_PORT' },
  'verify-lookup-preferences': { schema: verifyLookupPreferencesEnv, portVar: 'HTTP_PORT' },
  'workspace-objects': { schema: workspaceObjectsEnv, portVar: 'HTTP_PORT' },
  'conversations-connectors': { schema: conversationsConnectorsEnv, portVar: 'HTTP_PORT' },
  webhooks: { schema: webhooksEnv, portVar: 'HTTP_PORT' },
};

export interface Provided {
  /** Variable name -> literal value when known (undefined for secrets and unresolved references). */
  values: Map<string, string | undefined>;
  /** Variable name -> where it comes from: value, secret, configMap. */
  sources: Map<string, 'value' | 'secret' | 'configMap'>;
}

export function composeEnvironment(service: Yaml): Provided {
  const values = new Map<string, string | undefined>();
  const sources = new Map<string, 'value' | 'secret' | 'configMap'>();
  const env = service.environment ?? {};
  const entries: [string, string | number | boolean | null | undefined][] = Array.isArray(env)
    ? env.map((line: string) => {
        const [name, ...rest] = line.split('=');
        return [name, rest.length ? rest.join('=') : undefined];
      })
    : Object.entries(env);
  for (const [name, value] of entries) {
    values.set(name, value === undefined || value === null ? undefined : String(value));
    sources.set(name, 'value');
  }
  return { values, sources };
}

export function k8sEnvironment(
  container: Yaml,
  configMaps: Map<string, Record<string, string>>,
): Provided {
  const values = new Map<string, string | undefined>();
  const sources = new Map<string, 'value' | 'secret' | 'configMap'>();
  for (const from of container.envFrom ?? []) {
    if (from.secretRef) {
      throw new Error(
        `${container.name}: envFrom secretRef hides which variables it sets; use env[].valueFrom.secretKeyRef`,
      );
    }
    const data = configMaps.get(from.configMapRef?.name);
    if (!data)
      throw new Error(
        `${container.name}: envFrom names ConfigMap ${from.configMapRef?.name}, which deploy/ does not define`,
      );
    for (const [name, value] of Object.entries(data)) {
      values.set(`${from.prefix ?? ''}${name}`, String(value));
      sources.set(`${from.prefix ?? ''}${name}`, 'configMap');
    }
  }
  for (const entry of container.env ?? []) {
    if (entry.valueFrom?.secretKeyRef) {
      values.set(entry.name, undefined);
      sources.set(entry.name, 'secret');
    } else if (entry.valueFrom?.configMapKeyRef) {
      values.set(
        entry.name,
        configMaps.get(entry.valueFrom.configMapKeyRef.name)?.[entry.valueFrom.configMapKeyRef.key],
      );
      sources.set(entry.name, 'configMap');
    } else {
      values.set(entry.name, entry.value === undefined ? undefined : String(entry.value));
      sources.set(entry.name, 'value');
    }
  }
  return { values, sources };
}
