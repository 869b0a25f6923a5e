import * as smpp from 'smpp';
import type { PDU, Session } from 'smpp';
import { startTestSmsc } from './test-smsc';
import type { TestSmsc } from './test-smsc';

function bindTo(
  smsc: TestSmsc,
  password = 'secret',
): Promise<{ session: Session; status: number }> {
  return new Promise((resolve) => {
    const session = smpp.connect({ host: '127.0.0.1', port: smsc.port });
    session.on('error', () => undefined);
    session.bind_transceiver({ system_id: 'switchboard', password }, (pdu: PDU) =>
      resolve({ session, status: pdu.command_status }),
    );
  });
}

describe('startTestSmsc', () => {
  it('checks credentials, records a submit and sends its receipt in the other id form', async () => {
    const smsc = await startTestSmsc({
      receiptIds: 'other',
      receipts: () => ({ stat: 'DELIVRD' }),
    });
    try {
      expect((await bindTo(smsc, 'wrong')).status).toBe(0x0e);
      const { session, status } = await bindTo(smsc);
      expect(status).toBe(0);
      const receipt = new Promise<PDU>((resolve) =>
        session.on('deliver_sm', (pdu: PDU) => {
          session.send(pdu.response());
          resolve(pdu);
        }),
      );
      const resp = await new Promise<PDU>((resolve) =>
        session.submit_sm(
          {
            source_addr: 'Bird',
            source_addr_ton: 5,
            destination_addr: '31612345678',
            dest_addr_ton: 1,
            dest_addr_npi: 1,
            data_coding: 8,
            registered_delivery: 1,
            short_message: Buffer.from('héllo', 'utf16le').swap16(),
          },
          resolve,
        ),
      );
      expect(resp.message_id).toMatch(/^[0-9a-f]+$/);
      const pdu = await receipt;
      expect(pdu.receipted_message_id).toBe(String(parseInt(resp.message_id ?? '', 16)));
      expect(smsc.messages[0]).toMatchObject({ from: 'Bird', to: '31612345678', text: 'héllo' });
      expect(smsc.submits[0].source).toEqual({ addr: 'Bird', ton: 5, npi: 0 });
      session.destroy();
    } finally {
      await smsc.stop();
    }
  });
});
