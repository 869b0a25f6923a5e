import { locationOf, PIXEL, unsubscribeVia } from './tracking.routes';
import { confirmationPage, unsubscribedPage } from './unsubscribe-pages';

describe('unsubscribeVia', () => {
  const form = 'application/x-www-form-urlencoded';
  it("tells RFC 8058's one-click from the page's button", () => {
    expect(unsubscribeVia(form, Buffer.from('List-Unsubscribe=One-Click'))).toBe('one_click');
    expect(unsubscribeVia(undefined, Buffer.from('List-Unsubscribe=One-Click'))).toBe('one_click');
    expect(unsubscribeVia(form, Buffer.from('unsubscribe=confirm'))).toBe('page');
    const multipart =
      '--b\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--b--\r\n';
    expect(unsubscribeVia('multipart/form-data; boundary=b', Buffer.from(multipart))).toBe(
      'one_click',
    );
  });

  it('refuses anything else', () => {
    expect(unsubscribeVia(form, undefined)).toBeUndefined();
    expect(unsubscribeVia(form, Buffer.from('List-Unsubscribe=Yes'))).toBeUndefined();
    expect(unsubscribeVia(form, Buffer.from('unsubscribe=1'))).toBeUndefined();
    expect(unsubscribeVia('multipart/form-data; boundary=b', Buffer.from('--b--'))).toBeUndefined();
  });
});

describe('unsubscribe pages', () => {
  const page = { masked_address: 'a…a@example.com', sender_domain: '<b>acme</b>.example' };
  it('POST their form back to the same URL, escape what they show and carry no script', () => {
    const html = confirmationPage(page);
    expect(html).toContain('<form method="post">');
    expect(html).toContain('name="unsubscribe" value="confirm"');
    expect(html).toContain('&lt;b&gt;acme&lt;/b&gt;.example');
    expect(html).not.toMatch(/<script|<b>acme/i);
    expect(unsubscribedPage(page)).not.toMatch(/<script|<form/i);
  });
});

describe('PIXEL', () => {
  it('is a 1x1 GIF', () => {
    expect(PIXEL.subarray(0, 6).toString()).toBe('GIF89a');
    expect([PIXEL.readUInt16LE(6), PIXEL.readUInt16LE(8)]).toEqual([1, 1]);
  });
});

describe('locationOf', () => {
  it('keeps an ASCII URL exactly and percent-encodes what a header cannot carry', () => {
    const url = 'https://shop.example/a?x=1&y=%20#top';
    expect(locationOf(url)).toBe(url);
    expect(locationOf('https://shop.example/café 漢字😀')).toBe(
      'https://shop.example/caf%C3%A9%20%E6%BC%A2%E5%AD%97%F0%9F%98%80',
    );
  });
});
