import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { startGraphStandIn } from '@switchboard/testing';
import { SMS_WHATSAPP_CONFIG } from '../../config/sms-whatsapp.config';
import { HttpWhatsAppGraph } from './http-whatsapp-graph';
import { WHATSAPP_GRAPH } from './whatsapp-graph';
import type { WhatsAppGraph } from './whatsapp-graph';
import { WhatsAppGraphModule } from './whatsapp-graph.module';

describe(WhatsAppGraphModule.name, () => {
  it('provides WHATSAPP_GRAPH over WHATSAPP_GRAPH_URL with WHATSAPP_ACCESS_TOKEN', async () => {
    const graph = await startGraphStandIn({ accessToken: 'module-token' });
    graph.addAccount({ wabaId: '2001', name: 'Acme' });
    @Global()
    @Module({
      providers: [
        {
          provide: SMS_WHATSAPP_CONFIG,
          useValue: { WHATSAPP_GRAPH_URL: graph.url, WHATSAPP_ACCESS_TOKEN: 'module-token' },
        },
      ],
      exports: [SMS_WHATSAPP_CONFIG],
    })
    class ConfigModule {}
    const moduleRef = await Test.createTestingModule({
      imports: [ConfigModule, WhatsAppGraphModule],
    }).compile();
    const client = moduleRef.get<WhatsAppGraph>(WHATSAPP_GRAPH);
    expect(client).toBeInstanceOf(HttpWhatsAppGraph);
    expect(await client.getBusinessAccount('2001')).toMatchObject({ id: '2001', name: 'Acme' });
    await moduleRef.close();
    await graph.stop();
  });
});
