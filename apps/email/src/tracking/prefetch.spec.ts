import { isPrefetched } from './prefetch';

describe('isPrefetched', () => {
  it.each([
    'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
    'Mozilla/5.0',
    ' Mozilla/5.0 ',
    'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html',
  ])('recognises the proxy %p', (agent) => {
    expect(isPrefetched(agent)).toBe(true);
  });

  it.each([
    null,
    '',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
    'Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17029; Pro)',
    'Thunderbird/115.0',
  ])('counts %p as a person opening the message', (agent) => {
    expect(isPrefetched(agent)).toBe(false);
  });
});
