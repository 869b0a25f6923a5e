/**
 * Runs `work` for each item of a claimed batch and fails only once every item has finished.
 * With `Promise.all`, one item's failure (a group commit that failed) ended the batch while its
 * siblings still sent: the runner then handed their unsettled jobs back to the queue, and
 * another claim sent them a second time. Rethrows the first failure; the items that succeeded
 * have settled their jobs, so only the failed ones are retried.
 */
export async function forEachJob<T>(
  items: readonly T[],
  work: (item: T) => Promise<unknown>,
): Promise<void> {
  const results = await Promise.allSettled(items.map(work));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}
