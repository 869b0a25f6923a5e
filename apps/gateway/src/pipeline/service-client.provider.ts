/** Injection token of the gateway's ServiceClient (in-process bus or NATS, chosen at boot). */
export const SERVICE_CLIENT = Symbol('SERVICE_CLIENT');
