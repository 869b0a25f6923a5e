import type { EmailLookup } from '@switchboard/contracts';
import {
  isDisposableDomain,
  isFreeProvider,
  isRoleMailbox,
  suggestedDomain,
} from './email-address-lists';
import { isInternationalLocalPart } from './email-address';
import type { EmailParts } from './email-address';
import type { MailHostsVerdict } from './mail-hosts';

type Flag = EmailLookup['flags'][number];

/** How the address reads, given whether its domain takes mail: its flags and a likely correction. */
export function addressTraits(
  parts: EmailParts,
  refusesMail: boolean,
): { flags: Flag[]; didYouMean?: string } {
  const flags: Flag[] = [];
  if (isRoleMailbox(parts.local)) flags.push('role');
  if (isDisposableDomain(parts.domain)) flags.push('disposable');
  if (isFreeProvider(parts.domain)) flags.push('free_provider');
  const corrected = suggestedDomain(parts.domain, refusesMail);
  return corrected ? { flags, didYouMean: `${parts.local}@${corrected}` } : { flags };
}

/** A malformed address: nothing was looked up, and it cannot receive mail. */
export function malformedAnswer(email: string): EmailLookup {
  return {
    email,
    valid: false,
    result: 'undeliverable',
    delivery_confidence: 0,
    flags: [],
    reason: 'invalid_syntax',
  };
}

/**
 * The verdict. No mailbox is probed (no SMTP call-out: providers answer every recipient alike
 * or block probes), so a domain that accepts mail gives `neutral`, never `valid`: the address
 * could not be confirmed either way. Role and disposable addresses are `risky`; a likely
 * misspelling is `typo` (see `suggestedDomain` for when the domain's hosts count), since the
 * suggestion is what to act on. A local part beyond ASCII (RFC 6531) is `risky` too: every
 * server on the way, the sender's included, must speak SMTPUTF8, and many do not.
 */
export function emailAnswer(
  email: string,
  parts: EmailParts,
  hosts: MailHostsVerdict,
): EmailLookup {
  const valid = hosts === 'accepts';
  const { flags, didYouMean } = addressTraits(parts, hosts === 'refuses');
  const base = { email, valid, flags };
  if (didYouMean) {
    return {
      ...base,
      result: 'typo',
      delivery_confidence: valid ? 20 : 5,
      did_you_mean: didYouMean,
    };
  }
  if (hosts === 'refuses') {
    return { ...base, result: 'undeliverable', delivery_confidence: 0, reason: 'invalid_domain' };
  }
  if (hosts === 'unknown') return { ...base, result: 'neutral', delivery_confidence: 40 };
  if (flags.includes('disposable')) return { ...base, result: 'risky', delivery_confidence: 25 };
  if (isInternationalLocalPart(parts.local))
    return { ...base, result: 'risky', delivery_confidence: 45 };
  if (flags.includes('role')) return { ...base, result: 'risky', delivery_confidence: 55 };
  return { ...base, result: 'neutral', delivery_confidence: 75 };
}
