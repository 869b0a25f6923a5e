import { classifyCommandStatus, THROTTLING_STATUSES } from './smpp-status';

describe(classifyCommandStatus.name, () => {
  it.each([
    [0x0b, 'ESME_RINVDSTADR', false, 'invalid_destination'],
    [0x0a, 'ESME_RINVSRCADR', false, 'sender_unregistered'],
    [0x66, 'ESME_RX_R_APPN', false, 'blocked_by_carrier'],
    [0x01, 'ESME_RINVMSGLEN', false, 'content_rejected'],
    [0x08, 'ESME_RSYSERR', true, 'provider_unavailable'],
    [0x58, 'ESME_RTHROTTLED', true, 'provider_unavailable'],
    [0x14, 'ESME_RMSGQFUL', true, 'provider_unavailable'],
    [0x45, 'ESME_RSUBMITFAIL', true, 'provider_unavailable'],
    [0x401, '0x00000401', false, 'unknown'],
  ])('0x%s is %s', (status, name, temporary, code) => {
    expect(classifyCommandStatus(status)).toEqual({ name, temporary, code });
  });

  it('pauses the bind on the throttling answers only', () => {
    expect([...THROTTLING_STATUSES].sort()).toEqual([0x14, 0x58]);
  });
});
