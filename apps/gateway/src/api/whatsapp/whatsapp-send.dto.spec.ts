import fc from 'fast-check';
import { AppError } from '@switchboard/platform';
import { validateInto } from '../../pipeline/http/validation';
import { SendWhatsAppMessageDto } from './whatsapp-send.dto';

const base = { to: '+31612345678', text: { body: 'Hi' } };

function problems(body: unknown): string[] {
  try {
    validateInto(SendWhatsAppMessageDto, body, 'body');
  } catch (error) {
    if (error instanceof AppError)
      return (error.details ?? []).map((d) => `${d.param}: ${d.message}`);
    throw error;
  }
  return [];
}

describe(SendWhatsAppMessageDto.name, () => {
  it('accepts every field of the send, the content left to the service', () => {
    expect(
      problems({
        ...base,
        from: '+14155550100',
        in_reply_to_message_id: 'wam_1',
        tags: [{ name: 'kind', value: 'otp-1' }],
        metadata: { order: 1 },
      }),
    ).toEqual([]);
    expect(problems({ to: 'x', interactive: 'anything', contact_cards: 5 })).toEqual([]);
  });

  it('refuses an unknown top-level field by name', () => {
    expect(problems({ ...base, colour: 'red' })).toEqual(['colour: is not a known field']);
  });

  it('holds tags to 20, the charset, 32/64 characters and unique names', () => {
    const tags = Array.from({ length: 21 }, (_, i) => ({ name: `t${i}`, value: 'v' }));
    expect(problems({ ...base, tags })).toEqual(['tags: tags must hold at most 20 tags']);
    expect(
      problems({
        ...base,
        tags: [
          { name: 'a', value: 'b' },
          { name: 'a', value: 'c' },
        ],
      }),
    ).toEqual(['tags: tags must not repeat a tag name']);
    const bad = problems({
      ...base,
      tags: [
        { name: 'x'.repeat(33), value: 'has space' },
        { name: 'ok', value: 'v', extra: 1 },
      ],
    });
    expect(bad).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^tags\[0\]\.name: /),
        'tags[0].value: value may hold ASCII letters, digits, _ and - only',
        'tags[1].extra: is not a known field',
      ]),
    );
  });

  it('holds metadata to a JSON object of at most 2 KB serialized', () => {
    expect(problems({ ...base, metadata: { blob: 'x'.repeat(2100) } })).toEqual([
      'metadata: metadata must be at most 2048 bytes serialized',
    ]);
    expect(problems({ ...base, metadata: [1] })).toEqual(
      expect.arrayContaining([expect.stringMatching(/^metadata: /)]),
    );
  });

  it('answers any JSON body with the DTO or a 422, never anything else', () => {
    fc.assert(
      fc.property(
        fc.record(
          { to: fc.anything(), tags: fc.anything(), metadata: fc.anything(), text: fc.anything() },
          { requiredKeys: [] },
        ),
        (body) => {
          try {
            validateInto(SendWhatsAppMessageDto, body, 'body');
          } catch (error) {
            expect(error).toBeInstanceOf(AppError);
            expect((error as AppError).status).toBe(422);
          }
        },
      ),
      { numRuns: 300 },
    );
  }, 30_000);
});
