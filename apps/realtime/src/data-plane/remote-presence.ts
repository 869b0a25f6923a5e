/** A presence member as another realtime process announced it. */
export interface PresenceEntry {
  appId: string;
  channel: string;
  memberId: string;
  info?: unknown;
}

interface RemoteMember {
  info?: unknown;
  /** The other processes holding at least one of its connections on the channel. */
  processes: Set<string>;
}

/**
 * The presence members that the other realtime processes hold, per app and channel, as their
 * join and leave announcements and snapshots told: with this process's own members it makes the
 * member list every process shows, and says when a member is new or gone cluster-wide.
 */
export class RemotePresence {
  private readonly channels = new Map<string, Map<string, RemoteMember>>();

  has(appId: string, channel: string, memberId: string): boolean {
    return this.channels.get(channelKey(appId, channel))?.has(memberId) ?? false;
  }

  /** Members and their info on the channel held elsewhere. */
  members(appId: string, channel: string): ReadonlyMap<string, RemoteMember> {
    return this.channels.get(channelKey(appId, channel)) ?? new Map();
  }

  /** Records that `process` holds the member; true when no other process held it before. */
  add(process: string, entry: PresenceEntry): boolean {
    const name = channelKey(entry.appId, entry.channel);
    let members = this.channels.get(name);
    if (!members) this.channels.set(name, (members = new Map<string, RemoteMember>()));
    const member = members.get(entry.memberId);
    if (member) {
      member.processes.add(process);
      return false;
    }
    members.set(entry.memberId, { info: entry.info, processes: new Set([process]) });
    return true;
  }

  /** `process` no longer holds the member; true when no other process holds it now. */
  remove(process: string, appId: string, channel: string, memberId: string): boolean {
    const name = channelKey(appId, channel);
    const members = this.channels.get(name);
    const member = members?.get(memberId);
    if (!members || !member || !member.processes.delete(process)) return false;
    if (member.processes.size > 0) return false;
    members.delete(memberId);
    if (members.size === 0) this.channels.delete(name);
    return true;
  }

  /**
   * Makes `entries` what `process` holds (a snapshot, or `[]` for a process gone): returns the
   * members that appeared and those that vanished from every other process.
   */
  replace(
    process: string,
    entries: readonly PresenceEntry[],
  ): { added: PresenceEntry[]; removed: PresenceEntry[] } {
    const wanted = new Set(entries.map((entry) => entryKey(entry)));
    const removed: PresenceEntry[] = [];
    for (const [name, members] of [...this.channels]) {
      const [appId, channel] = splitKey(name);
      for (const [memberId, member] of [...members]) {
        if (!member.processes.has(process)) continue;
        if (wanted.has(entryKey({ appId, channel, memberId }))) continue;
        if (this.remove(process, appId, channel, memberId))
          removed.push({ appId, channel, memberId });
      }
    }
    const added = entries.filter((entry) => this.add(process, entry));
    return { added, removed };
  }
}

/** An app's channel as one map key (the app id never holds NUL). */
export function channelKey(appId: string, channel: string): string {
  return `${appId}\u0000${channel}`;
}

export function splitKey(name: string): [string, string] {
  const at = name.indexOf('\u0000');
  return [name.slice(0, at), name.slice(at + 1)];
}

function entryKey(entry: Pick<PresenceEntry, 'appId' | 'channel' | 'memberId'>): string {
  return `${entry.appId}\u0000${entry.channel}\u0000${entry.memberId}`;
}
