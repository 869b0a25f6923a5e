/**
 * One request-reply operation of a service: what the caller sends on its subject and what the
 * owning service answers. Each area declares its operations as a map from subject to `Rpc<...>`
 * (`email/email.rpc.ts`, ...); `RpcMap` joins them, and both `ServiceClient.send` and the
 * `@Handles` decorator are typed by it, so a payload or reply that does not match its subject is
 * a compile error on both sides.
 */
export interface Rpc<Request, Reply> {
  request: Request;
  reply: Reply;
}

/** A request that names one resource by its path parameter. */
export type IdRequest<Name extends string> = { [K in Name]: string };

/** An operation answered without a body (`204` at the gateway). */
export type NoContent = null;
