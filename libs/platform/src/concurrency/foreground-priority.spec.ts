import { ForegroundPriority } from './foreground-priority';
import type { LoopLoad } from './foreground-priority';

/** A priority whose loop reads whatever the test last set, adjusted by hand. */
function priorityWith(load: LoopLoad) {
  const reading = { ...load };
  const priority = new ForegroundPriority({ intervalMs: 60_000, readLoad: () => reading });
  return { priority, reading };
}

/** `count` intervals, each with a request. */
function intervalsWithRequests(priority: ForegroundPriority, count: number): void {
  for (let interval = 0; interval < count; interval++) {
    priority.noteRequest();
    priority.adjust();
  }
}

describe('ForegroundPriority', () => {
  it('halves the background share each busy interval with requests, down to the floor', () => {
    const { priority } = priorityWith({ utilization: 0.95, maxDelayMs: 0 });
    const shares: number[] = [];
    for (let interval = 0; interval < 6; interval++) {
      priority.noteRequest();
      priority.adjust();
      shares.push(priority.share);
    }
    expect(shares).toEqual([1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 16, 1 / 16]);
    expect(priority.limit(64)).toBe(4);
    expect(priority.limit(8)).toBe(1); // never below one slot
  });

  it('counts a late loop as busy even when its utilization is low (CPUs taken by others)', () => {
    const { priority } = priorityWith({ utilization: 0.3, maxDelayMs: 45 });
    priority.noteRequest();
    priority.adjust();
    expect(priority.share).toBe(1 / 2);
  });

  it('leaves background work alone when the loop is busy without requests (its own work)', () => {
    const { priority } = priorityWith({ utilization: 1, maxDelayMs: 200 });
    priority.adjust();
    priority.adjust();
    expect(priority.share).toBe(1);
    expect(priority.limit(64)).toBe(64);
  });

  it('gives the share back a step per interval whose requests left the loop room', () => {
    const { priority, reading } = priorityWith({ utilization: 1, maxDelayMs: 0 });
    const raised = jest.fn();
    const stop = priority.onRaise(raised);
    intervalsWithRequests(priority, 4);
    expect(priority.share).toBe(1 / 16);
    expect(raised).not.toHaveBeenCalled();
    reading.utilization = 0.2; // requests keep coming, but the loop has room now
    intervalsWithRequests(priority, 40);
    expect(priority.share).toBe(1);
    expect(raised).toHaveBeenCalledTimes(30); // one call per step until full, none after
    stop();
  });

  it('gives the whole share back after an interval without requests', () => {
    const { priority } = priorityWith({ utilization: 1, maxDelayMs: 0 });
    const raised = jest.fn();
    const stop = priority.onRaise(raised);
    intervalsWithRequests(priority, 4);
    expect(priority.share).toBe(1 / 16);
    priority.adjust(); // the burst is over: nobody is left to yield to
    expect(priority.share).toBe(1);
    expect(priority.limit(64)).toBe(64);
    expect(raised).toHaveBeenCalledTimes(1);
    stop();
  });

  it('goes back to the full share once nobody listens', () => {
    const { priority } = priorityWith({ utilization: 1, maxDelayMs: 0 });
    const stop = priority.onRaise(() => undefined);
    priority.noteRequest();
    priority.adjust();
    expect(priority.share).toBe(1 / 2);
    stop();
    expect(priority.share).toBe(1);
  });

  it('follows a share decided elsewhere and stops reading its own loop', () => {
    const readLoad = jest.fn(() => ({ utilization: 1, maxDelayMs: 0 }));
    const priority = new ForegroundPriority({ intervalMs: 60_000, readLoad });
    const raised = jest.fn();
    priority.follow(1 / 8);
    const stop = priority.onRaise(raised);
    expect(readLoad).not.toHaveBeenCalled(); // no readings of this thread's loop
    expect(priority.limit(64)).toBe(8);
    priority.follow(1 / 100); // never below the floor
    expect(priority.share).toBe(1 / 16);
    priority.follow(1 / 2);
    expect(raised).toHaveBeenCalledTimes(1); // a worker at its limit claims again
    stop();
  });
});
