import { checkedConnectorArguments, e164Of } from './connector-arguments';

describe(checkedConnectorArguments.name, () => {
  it('takes a number of an account, with or without a PIN', () => {
    expect(
      checkedConnectorArguments({ wabaId: '102', phoneId: '106', phoneNumber: '+31612340001' }),
    ).toEqual({
      kind: 'direct',
      number: { wabaId: '102', phoneId: '106', phoneNumber: '+31612340001' },
    });
    expect(
      checkedConnectorArguments({
        wabaId: '102',
        phoneId: '106',
        phoneNumber: '+31612340001',
        phoneRegistrationPin: '123456',
      }),
    ).toMatchObject({ kind: 'direct', number: { pin: '123456' } });
  });

  it('takes a legacy channel to migrate', () => {
    expect(
      checkedConnectorArguments({ isCpMigrated: true, cpChannelId: 'ch-1', cpAccessKey: 'k' }),
    ).toEqual({ kind: 'legacy', channelId: 'ch-1', accessKey: 'k' });
  });

  it('names every offending field', () => {
    const details = checkedConnectorArguments({
      wabaId: 'abc',
      phoneNumber: '0612340001',
      phoneRegistrationPin: '12345',
      cpAccessKey: 'k',
    });
    expect(Array.isArray(details) && details.map((d) => d.param).sort()).toEqual([
      'arguments.cpAccessKey',
      'arguments.phoneId',
      'arguments.phoneNumber',
      'arguments.phoneRegistrationPin',
      'arguments.wabaId',
    ]);
  });

  it('refuses a migration that also names the number', () => {
    const details = checkedConnectorArguments({
      isCpMigrated: true,
      cpChannelId: 'ch-1',
      cpAccessKey: 'k',
      phoneId: '106',
    });
    expect(details).toEqual([expect.objectContaining({ param: 'arguments.phoneId' }) as unknown]);
  });

  it('reads E.164 out of a spelled number', () => {
    expect(e164Of('+1 555-010-0999')).toBe('+15550100999');
  });
});
