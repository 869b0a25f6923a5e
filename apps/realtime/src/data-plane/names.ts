import { LIMITS } from './protocol';

/** Letters, digits and `_ - = @ , . ;` (SDK `RealtimeChannelName`). */
const CHANNEL = /^[A-Za-z0-9_\-=@,.;]+$/;
/** The reserved channel of one signed-in member: `#server-to-user-{member_id}`. */
export const MEMBER_CHANNEL_PREFIX = '#server-to-user-';

export type ChannelKind = 'public' | 'private' | 'presence' | 'encrypted' | 'member';

export function channelKind(name: string): ChannelKind {
  if (name.startsWith(MEMBER_CHANNEL_PREFIX)) return 'member';
  if (name.startsWith('private-encrypted-')) return 'encrypted';
  if (name.startsWith('presence-')) return 'presence';
  if (name.startsWith('private-')) return 'private';
  return 'public';
}

/** Why a channel name is refused, or undefined. */
export function channelNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.length === 0) return 'a channel name is required';
  if (name.length > LIMITS.channelNameLength)
    return `a channel name has at most ${LIMITS.channelNameLength} characters`;
  if (name.startsWith(MEMBER_CHANNEL_PREFIX)) {
    const member = name.slice(MEMBER_CHANNEL_PREFIX.length);
    return member.length > 0 ? undefined : 'the member channel names a member';
  }
  return CHANNEL.test(name)
    ? undefined
    : 'a channel name has only letters, digits and _ - = @ , . ;';
}

/** Why an event name is refused, or undefined: 1 to 200 characters, not the reserved prefixes. */
export function eventNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.length === 0) return 'an event name is required';
  if (name.length > LIMITS.eventNameLength)
    return `an event name has at most ${LIMITS.eventNameLength} characters`;
  if (name.startsWith('bird:') || name.startsWith('bird_internal:'))
    return 'event names starting with bird: or bird_internal: are reserved';
  return undefined;
}
