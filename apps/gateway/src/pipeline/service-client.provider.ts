/** Injection token of the gateway's ServiceClient (in-process bus or NATS, chosen at boot). */
export const SERVICE_CLIENT = Symbol('SERVICE_CLIENT');

/**
 * Injection token of what /readyz checks besides the database and the services: the embedded
 * default's background thread (empty in distributed mode, where each service reports its own).
 */
export const PLATFORM_READINESS = Symbol('PLATFORM_READINESS');
