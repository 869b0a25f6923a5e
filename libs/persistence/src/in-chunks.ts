/**
 * Runs `step` (one statement on at most `chunk` rows) until it handles less than a whole chunk:
 * a sweep that never holds many locks or a long transaction. Answers the rows it handled.
 */
export async function inChunks(chunk: number, step: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const count = await step();
    total += count;
    if (count < chunk) return total;
  }
}
