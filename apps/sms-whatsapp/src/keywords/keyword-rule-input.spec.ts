import type { ErrorDetail } from '@switchboard/contracts';
import fc from 'fast-check';
import { parseKeywords, parseReply } from './keyword-rule-input';

describe(parseKeywords.name, () => {
  it('normalises and de-duplicates keywords, naming each one it cannot take', () => {
    const problems: ErrorDetail[] = [];
    expect(parseKeywords([' Basta! ', 'BASTA', 'opt  in', '¿?', 'x'.repeat(31)], problems)).toEqual(
      ['BASTA', 'OPT IN'],
    );
    expect(problems.map(({ param }) => param)).toEqual(['keywords[3]', 'keywords[4]']);
  });

  it('never throws and keeps only normalised keywords, whatever it is given', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const problems: ErrorDetail[] = [];
        const keywords = parseKeywords(value, problems) ?? [];
        for (const keyword of keywords) {
          expect(keyword).toBe(keyword.toUpperCase().trim());
          expect(keyword.length).toBeGreaterThan(0);
        }
      }),
    );
  });
});

describe(parseReply.name, () => {
  const problemsOf = (input: Record<string, unknown>, suffix: string | null = null) => {
    const problems: ErrorDetail[] = [];
    const change = parseReply(input, suffix, problems);
    return { change, params: problems.map(({ param }) => param) };
  };

  it('switches the reply off only with confirmed_self_managed, and refuses the flag beside a reply', () => {
    expect(problemsOf({ reply: null, confirmed_self_managed: true })).toEqual({
      change: { text: null, selfManaged: true },
      params: [],
    });
    expect(problemsOf({ reply: null }).params).toEqual(['confirmed_self_managed']);
    expect(problemsOf({ reply: 'Hi', confirmed_self_managed: true }).params).toEqual([
      'confirmed_self_managed',
    ]);
    expect(problemsOf({ confirmed_self_managed: true }).params).toEqual(['confirmed_self_managed']);
    expect(problemsOf({})).toEqual({ change: undefined, params: [] });
  });

  it('counts the carrier suffix against the one SMS a reply may fill', () => {
    const suffix = 'Msg&data rates may apply. Reply STOP to opt out.';
    expect(problemsOf({ reply: 'x'.repeat(110) }, suffix).params).toEqual([]);
    expect(problemsOf({ reply: 'x'.repeat(112) }, suffix).params).toEqual(['reply']);
    expect(problemsOf({ reply: 'ж'.repeat(71) }).params).toEqual(['reply']);
    expect(problemsOf({ reply: '   ' }).params).toEqual(['reply']);
  });
});
