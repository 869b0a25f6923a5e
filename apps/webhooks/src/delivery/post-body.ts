import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';

export interface PostAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  /** The first `maxBodyBytes` of the answer, as text. */
  body: string;
}

export interface PostRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The whole exchange, waiting for a connection included. */
  timeoutMs: number;
  maxBodyBytes: number;
}

/** How much of an answer's body is read to keep its connection; a longer one closes it. */
export const DRAIN_BYTES = 64 * 1024;

/** Nothing was answered within the request's time-out. */
export class PostTimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * POSTs through undici's low-level `dispatch`: one handler object and one timer per request,
 * where `request()` adds an AbortSignal, a response stream and its async iteration (ADR 21).
 * Answers once the answer is complete; the body beyond `maxBodyBytes` is read and dropped, so
 * the connection carries the next request, up to `DRAIN_BYTES`: past that the answer is taken as
 * it stands and the connection closed (an endless body is not read for the whole time-out). The
 * body is text PostgreSQL can store: a NUL becomes U+FFFD. An answer whose headers came keeps its status when
 * the time runs out or the connection breaks during its body, with what of the body came.
 * Rejects with `PostTimeoutError` when nothing was answered in time, or with undici's error.
 */
export function postBody(dispatcher: Dispatcher, request: PostRequest): Promise<PostAnswer> {
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let settled = false;
    let statusCode = 0;
    let headers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    let kept = 0;
    let read = 0;
    const answered = (): PostAnswer => ({
      statusCode,
      headers,
      // Decoding replaces broken UTF-8; a NUL (which jsonb and text refuse) is replaced here.
      body:
        chunks.length === 0 ? '' : Buffer.concat(chunks).toString('utf8').replace(/\0/g, '\ufffd'),
    });
    const settle = (failure?: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (statusCode >= 200 || !failure) resolve(answered());
      else reject(failure);
    };
    const timer = setTimeout(() => {
      const failure = new PostTimeoutError(`no answer within ${request.timeoutMs} ms`);
      settle(failure);
      controller?.abort(failure);
    }, request.timeoutMs);
    dispatcher.dispatch(
      { path: request.path, method: 'POST', headers: request.headers, body: request.body },
      {
        onRequestStart(started) {
          controller = started;
          // Timed out while waiting for a connection: it goes no further.
          if (settled) started.abort(new PostTimeoutError('timed out before it was sent'));
        },
        onResponseStart(_controller, code, answerHeaders) {
          // Informational (1xx) answers come before the real one.
          if (code < 200) return;
          statusCode = code;
          headers = answerHeaders;
        },
        onResponseData(responding, chunk) {
          read += chunk.length;
          if (read > DRAIN_BYTES) {
            settle();
            responding.abort(new Error('answer body too long; connection closed'));
            return;
          }
          if (kept >= request.maxBodyBytes) return;
          const part = chunk.subarray(0, request.maxBodyBytes - kept);
          chunks.push(part);
          kept += part.length;
        },
        onResponseEnd: () => settle(),
        onResponseError: (_controller, err) => settle(err),
      },
    );
  });
}
