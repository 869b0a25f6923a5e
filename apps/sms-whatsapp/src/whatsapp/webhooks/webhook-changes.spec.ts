import { readWebhooks } from './webhook-changes';

const row = (id: string, body: unknown) => ({
  id,
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
const wrap = (changes: unknown[], waba = '102') => ({
  object: 'whatsapp_business_account',
  entry: [{ id: waba, changes }],
});
const metadata = { display_phone_number: '15550783881', phone_number_id: '106' };

describe(readWebhooks.name, () => {
  it('sorts the changes of the rows, in order, by what applies them', () => {
    const { changes, notes } = readWebhooks([
      row('1', wrap([{ field: 'messages', value: { metadata, statuses: [] } }])),
      row(
        '2',
        wrap([
          { field: 'message_template_status_update', value: { event: 'APPROVED' } },
          { field: 'phone_number_quality_update', value: { event: 'FLAGGED' } },
          { field: 'account_update', value: { event: 'VERIFIED_ACCOUNT' } },
        ]),
      ),
    ]);
    expect(changes.map((change) => [change.rowId, change.kind, change.wabaId])).toEqual([
      ['1', 'messages', '102'],
      ['2', 'template_status', '102'],
      ['2', 'quality', '102'],
      ['2', 'account', '102'],
    ]);
    expect(notes.size).toBe(0);
  });

  it('keeps only the statuses that name a wamid, a status and a time', () => {
    const { changes } = readWebhooks([
      row(
        '1',
        wrap([
          {
            field: 'messages',
            value: {
              metadata,
              statuses: [
                { id: 'wamid.A', status: 'delivered', timestamp: '1700000000' },
                { id: 7, status: 'read', timestamp: '1700000001' },
                'garbage',
              ],
            },
          },
        ]),
      ),
    ]);
    const [change] = changes;
    expect(change.kind === 'messages' && change.value.statuses).toEqual([
      { id: 'wamid.A', status: 'delivered', timestamp: '1700000000' },
    ]);
  });

  it('notes what it ignores against its row instead of failing', () => {
    const { changes, notes } = readWebhooks([
      row('1', { object: 'page', entry: [] }),
      row('2', '{"object":'),
      row('3', wrap([{ field: 'messages', value: { statuses: [] } }])),
      row('4', wrap([{ field: 'security', value: {} }, 'x'])),
      row('5', { object: 'whatsapp_business_account', entry: [{ changes: [] }] }),
      row('6', wrap([{ field: 'messages', value: { metadata, errors: [{ code: 131000 }] } }])),
    ]);
    expect(changes.map((change) => change.rowId)).toEqual(['6']);
    expect(Object.fromEntries(notes)).toEqual({
      '1': ['object "page" is not whatsapp_business_account; ignored'],
      '2': ['not a JSON object'],
      '3': ['a messages change without metadata.phone_number_id; ignored'],
      '4': ['field "security" ignored', 'field undefined ignored'],
      '5': ['an entry without id or changes; ignored'],
      '6': ['Meta reported errors: [{"code":131000}]'],
    });
  });
});
