import { SenderPacing } from './sender-pacing';

describe(SenderPacing.name, () => {
  const pacing = () => new SenderPacing((carrier) => (carrier === 'capped' ? 2 : undefined));

  it('hands a capped sender turns 1/sender_tps apart per part, in the order asked', () => {
    const turns = pacing();
    expect(turns.startOf('capped', 'Acme', 1, undefined, 1000)).toBe(1000);
    expect(turns.startOf('capped', 'Acme', 3, undefined, 1000)).toBe(1500);
    // The three parts before it took three turns.
    expect(turns.startOf('capped', 'Acme', 1, undefined, 1000)).toBe(3000);
  });

  it('keeps each sender and carrier apart, and leaves senders of an uncapped carrier alone', () => {
    const turns = pacing();
    turns.startOf('capped', 'Acme', 1, undefined, 0);
    expect(turns.startOf('capped', 'Beta', 1, undefined, 0)).toBe(0);
    expect(turns.paces('open')).toBe(false);
    expect(turns.startOf('open', 'Acme', 1, undefined, 0)).toBe(0);
    expect(turns.startOf('open', 'Acme', 1, undefined, 0)).toBe(0);
  });

  it('keeps a turn given before, and gives later messages turns after it', () => {
    const turns = pacing();
    expect(turns.startOf('capped', 'Acme', 1, 5000, 4990)).toBe(5000);
    expect(turns.startOf('capped', 'Acme', 1, undefined, 4990)).toBe(5500);
    // A turn come and gone starts now.
    expect(turns.startOf('capped', 'Acme', 1, 100, 7000)).toBe(7000);
  });

  it('starts a sender that was idle at once', () => {
    const turns = pacing();
    turns.startOf('capped', 'Acme', 1, undefined, 0);
    expect(turns.startOf('capped', 'Acme', 1, undefined, 60_000)).toBe(60_000);
  });

  it('gives each sender of a capped carrier a tenth of a second of places at once, at least one', async () => {
    const turns = new SenderPacing((carrier) => ({ slow: 1, fast: 50 })[carrier]);
    const most = async (carrier: string) => {
      let running = 0;
      let peak = 0;
      const task = async () => {
        peak = Math.max(peak, ++running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
      };
      await Promise.all(Array.from({ length: 8 }, () => turns.withPlace(carrier, 'Acme', task)));
      return peak;
    };
    expect(await most('slow')).toBe(1);
    expect(await most('fast')).toBe(5);
    expect(await most('open')).toBe(8);
  });
});
