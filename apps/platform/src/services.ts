import { conversationsConnectorsService } from '@switchboard/app-conversations-connectors';
import { docsService } from '@switchboard/app-docs';
import { emailService } from '@switchboard/app-email';
import { realtimeService } from '@switchboard/app-realtime';
import { smsWhatsappService } from '@switchboard/app-sms-whatsapp';
import { verifyLookupPreferencesService } from '@switchboard/app-verify-lookup-preferences';
import { workspaceObjectsService } from '@switchboard/app-workspace-objects';
import type { EnvSchema, ServiceProcess } from '@switchboard/platform';

/** Every product service the embedded default boots behind the gateway. */
export const productServices: Array<ServiceProcess<EnvSchema>> = [
  docsService,
  emailService,
  realtimeService,
  smsWhatsappService,
  verifyLookupPreferencesService,
  workspaceObjectsService,
  conversationsConnectorsService,
];
