import { conversationsConnectorsService } from '@switchboard/app-conversations-connectors';
import { docsService } from '@switchboard/app-docs';
import { emailService } from '@switchboard/app-email';
import { realtimeService } from '@switchboard/app-realtime';
import { smsWhatsappService } from '@switchboard/app-sms-whatsapp';
import { verifyLookupPreferencesService } from '@switchboard/app-verify-lookup-preferences';
import { webhooksService } from '@switchboard/app-webhooks';
import { workspaceObjectsService } from '@switchboard/app-workspace-objects';
import { ProductServiceApps } from '@switchboard/contracts';
import type { ProductServiceApp } from '@switchboard/contracts';
import type { EnvSchema, ServiceProcess } from '@switchboard/platform';

/**
 * Each product service's process definition, by app folder. Keyed by the contracts' list, so a
 * service added there and not here (or the reverse) does not compile.
 */
const byApp: Record<ProductServiceApp, ServiceProcess<EnvSchema>> = {
  docs: docsService,
  email: emailService,
  realtime: realtimeService,
  'sms-whatsapp': smsWhatsappService,
  'verify-lookup-preferences': verifyLookupPreferencesService,
  'workspace-objects': workspaceObjectsService,
  'conversations-connectors': conversationsConnectorsService,
  webhooks: webhooksService,
};

/** Every product service the embedded default boots behind the gateway, in the list's order. */
export const productServices: Array<ServiceProcess<EnvSchema>> = ProductServiceApps.map(
  (app) => byApp[app],
);
