// A compose thread of ComposePool: builds and DKIM-signs messages off the main event loop.
import { parentPort } from 'node:worker_threads';
import { composeMessage } from './compose-message';
import type { ComposeRequest, ComposeResponse } from './compose-pool';

parentPort?.on('message', ({ id, mail, date }: ComposeRequest) => {
  composeMessage(mail, new Date(date)).then(
    (raw) => {
      // A copy of exactly its bytes (Buffer.concat may hand out a slice of a shared pool),
      // moved to the main thread rather than copied again.
      const bytes = new Uint8Array(raw).buffer;
      parentPort?.postMessage({ id, raw: bytes } satisfies ComposeResponse, [bytes]);
    },
    (err: unknown) =>
      parentPort?.postMessage({
        id,
        error: err instanceof Error ? err.message : String(err),
      } satisfies ComposeResponse),
  );
});
