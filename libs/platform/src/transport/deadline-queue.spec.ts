import { setTimeout as sleep } from 'node:timers/promises';
import { DeadlineQueue } from './deadline-queue';

describe(DeadlineQueue.name, () => {
  it('expires each entry not answered in time, in order, and never an answered one', async () => {
    const queue = new DeadlineQueue(40);
    const expired: string[] = [];
    const answerA = queue.add(() => expired.push('a'));
    queue.add(() => expired.push('b'));
    await sleep(15);
    const answerC = queue.add(() => expired.push('c'));
    queue.add(() => expired.push('d'));
    answerA();
    await sleep(35);
    expect(expired).toEqual(['b']);
    answerC();
    await sleep(30);
    expect(expired).toEqual(['b', 'd']);
  });

  it('does not expire early, and answering twice or after expiry changes nothing', async () => {
    const queue = new DeadlineQueue(30);
    let expiredAt = 0;
    const started = performance.now();
    const answer = queue.add(() => (expiredAt = performance.now()));
    await sleep(60);
    expect(expiredAt - started).toBeGreaterThanOrEqual(29);
    answer();
    answer();
    const later = queue.add(() => (expiredAt = -1));
    later();
    await sleep(50);
    expect(expiredAt).toBeGreaterThan(0);
  });

  it('holds the event loop open only while an entry waits', () => {
    const queue = new DeadlineQueue(10_000);
    const timer = () => (queue as unknown as { timer?: NodeJS.Timeout }).timer;
    const answers = Array.from({ length: 3000 }, () => queue.add(() => undefined));
    expect(timer()?.hasRef()).toBe(true);
    for (const answer of answers.reverse()) answer();
    expect(timer()?.hasRef() ?? false).toBe(false);
    const answer = queue.add(() => undefined);
    expect(timer()?.hasRef()).toBe(true);
    answer();
    expect(timer()?.hasRef() ?? false).toBe(false);
  });
});
