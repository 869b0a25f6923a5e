import type { WhatsAppMessage } from '@switchboard/contracts';
import { withInboundMediaUrl } from './inbound-media-url';

describe('withInboundMediaUrl', () => {
  const inbound = {
    id: 'wam_01',
    direction: 'inbound',
    image: { id: 'waf_01', mime_type: 'image/jpeg', caption: 'hi' },
  } as unknown as WhatsAppMessage;

  it("points an inbound message's media at the API route on the public origin", () => {
    expect(withInboundMediaUrl(inbound, 'https://api.example.com/', new Set()).image).toEqual({
      id: 'waf_01',
      mime_type: 'image/jpeg',
      caption: 'hi',
      url: 'https://api.example.com/v1/whatsapp/messages/wam_01/media/waf_01',
    });
  });

  it('leaves the url out for media WhatsApp could not give, and outbound media as sent', () => {
    expect(
      withInboundMediaUrl(inbound, 'https://x', new Set(['waf_01'])).image?.url,
    ).toBeUndefined();
    const outbound = {
      id: 'wam_02',
      direction: 'outbound',
      image: { url: 'https://cdn.example/a.jpg' },
    } as unknown as WhatsAppMessage;
    expect(withInboundMediaUrl(outbound, 'https://x', new Set())).toBe(outbound);
  });
});
