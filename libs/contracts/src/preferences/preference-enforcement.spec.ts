import { preferenceStops } from './preference-enforcement';
import type { ProjectedPreference } from './preference-enforcement';

const revoked = (sender_scope: string, coverage = 'non_transactional'): ProjectedPreference => ({
  sender_scope,
  status: 'revoked',
  coverage,
});
const granted = (sender_scope: string): ProjectedPreference => ({
  sender_scope,
  status: 'granted',
  coverage: 'non_transactional',
});
const deleted = (sender_scope: string): ProjectedPreference => ({
  sender_scope,
  status: 'deleted',
  coverage: 'all',
});
const marketing = { senderScope: 'Acme', transactional: false };
const receipt = { senderScope: 'Acme', transactional: true };

describe(preferenceStops.name, () => {
  it('lets a send through when the recipient has no statement, or only a grant', () => {
    expect(preferenceStops([], marketing)).toBe(false);
    expect(preferenceStops([granted('')], marketing)).toBe(false);
  });

  it('stops non-transactional sends under non_transactional coverage, every send under all', () => {
    expect(preferenceStops([revoked('')], marketing)).toBe(true);
    expect(preferenceStops([revoked('')], receipt)).toBe(false);
    expect(preferenceStops([revoked('', 'all')], receipt)).toBe(true);
  });

  it('reads a coverage it does not know as all', () => {
    expect(preferenceStops([revoked('', 'everything')], receipt)).toBe(true);
  });

  it('stops a send on any revocation that applies: channel-wide or its sender, never another sender', () => {
    expect(preferenceStops([granted(''), revoked('Acme')], marketing)).toBe(true);
    expect(preferenceStops([revoked('Other', 'all')], marketing)).toBe(false);
    // A grant scoped to one sender does not lift the person's channel-wide opt-out.
    expect(preferenceStops([revoked('', 'all'), granted('Acme')], marketing)).toBe(true);
    // Nor does a weaker scoped revocation weaken a stronger channel-wide one.
    expect(preferenceStops([revoked('', 'all'), revoked('Acme')], receipt)).toBe(true);
  });

  it('falls back to the channel-wide statement when the sender-scoped one was deleted', () => {
    expect(preferenceStops([deleted('Acme'), revoked('')], marketing)).toBe(true);
    expect(preferenceStops([deleted('Acme'), deleted('')], marketing)).toBe(false);
  });

  it('never matches a channel-wide send to a sender-scoped statement', () => {
    expect(
      preferenceStops([revoked('Acme', 'all')], { senderScope: '', transactional: false }),
    ).toBe(false);
  });
});
